import { AuditPage } from '../features/audit/audit-page';
import { useGetClientsQuery } from '../features/clients/clients-api';
import { useUser } from '../lib/session/use-user';

/** Composes the audit screen with the clients list, so neither feature imports the other. */
export default function AuditRoute() {
  const user = useUser();
  const clients = useGetClientsQuery();
  if (!user) return null;
  return <AuditPage adminId={user.id} clients={clients.data ?? []} />;
}
