import { ClientsPage } from '../features/clients/clients-page';
import { LogosManager, useGetLogosQuery } from '../features/logos';

/** Composes the clients screen with the logos feature, so neither feature imports the other. */
export default function ClientsRoute() {
  const logos = useGetLogosQuery();
  return <ClientsPage logos={logos.data ?? []} logosTab={<LogosManager />} />;
}
