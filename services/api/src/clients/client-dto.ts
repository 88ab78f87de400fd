/** ClientDto: the clients read model joined with the pending invitation code and the logo name. */
import { clientStatusLabel, DomainError, type ClientDto, type MyClientDto } from '@rna/domain';
import type { ClientReadModel, LogoReadModel } from '@rna/read-models/accounts';
import { credentials, type Credential } from '../accounts/credentials';
import { clientsReadModel, logosReadModel } from '../accounts/read-models';
import type { ApiDeps } from '../http/deps';

export function toClientDto(
  client: ClientReadModel,
  credential: Credential | null,
  logo: LogoReadModel | null,
  now: Date,
): ClientDto {
  return {
    id: client.id,
    email: client.email,
    taxCode: client.taxCode,
    invitationCode: credential && !credential.activated ? credential.invitationCode : null,
    active: client.active,
    activationTime: client.activationTime,
    lastAccessTime: client.lastAccessTime,
    endDate: client.endDate,
    availableYearlySearches: client.availableYearlySearches,
    remainingSearches: client.remainingSearches,
    enableVariationAlerts: client.enableVariationAlerts,
    pdfEnabled: client.pdfEnabled,
    logo: logo && !logo.deleted ? { id: logo.logoId, name: logo.name } : null,
    status: clientStatusLabel(client, now),
  };
}

export async function listClientDtos(deps: ApiDeps): Promise<ClientDto[]> {
  const [clients, clientCredentials, logos] = await Promise.all([
    clientsReadModel(deps).find({}, { sortBy: 'email', order: 'asc' }),
    credentials(deps).find({ role: 'CLIENT' }),
    logosReadModel(deps).find({ deleted: false }),
  ]);
  const credentialByUser = new Map(clientCredentials.map((c) => [c.userId, c]));
  const logoById = new Map(logos.map((l) => [l.logoId, l]));
  const now = deps.clock();
  return clients.map((client) =>
    toClientDto(
      client,
      credentialByUser.get(client.id) ?? null,
      client.logoId === null ? null : (logoById.get(client.logoId) ?? null),
      now,
    ),
  );
}

export async function getClientDto(deps: ApiDeps, clientId: string): Promise<ClientDto> {
  const client = await clientsReadModel(deps).get(clientId);
  if (!client) throw new DomainError('U001');
  const [credential, logo] = await Promise.all([
    credentials(deps).get(client.email),
    client.logoId === null ? null : logosReadModel(deps).get(String(client.logoId)),
  ]);
  return toClientDto(client, credential?.userId === client.id ? credential : null, logo, deps.clock());
}

export async function getMyClient(deps: ApiDeps, clientId: string): Promise<MyClientDto> {
  const client = await clientsReadModel(deps).get(clientId);
  if (!client) throw new DomainError('U001');
  return {
    id: client.id,
    email: client.email,
    remainingSearches: client.remainingSearches,
    availableYearlySearches: client.availableYearlySearches,
    endDate: client.endDate,
  };
}
