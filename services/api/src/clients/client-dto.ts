/** ClientDto: the clients read model joined with the logo name (never the invitation code). */
import { clientStatusLabel, DomainError, type ClientDto, type MyClientDto } from '@rna/domain';
import type { ClientReadModel, LogoReadModel } from '@rna/read-models/accounts';
import { clientsReadModel, logosReadModel } from '../accounts/read-models';
import type { ApiDeps } from '../http/deps';

export function toClientDto(client: ClientReadModel, logo: LogoReadModel | null, now: Date): ClientDto {
  return {
    id: client.id,
    email: client.email,
    taxCode: client.taxCode,
    invitedAt: client.invitedAt,
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
  const [clients, logos] = await Promise.all([
    clientsReadModel(deps).find({}, { sortBy: 'email', order: 'asc' }),
    logosReadModel(deps).find({ deleted: false }),
  ]);
  const logoById = new Map(logos.map((l) => [l.logoId, l]));
  const now = deps.clock();
  return clients.map((client) =>
    toClientDto(client, client.logoId === null ? null : (logoById.get(client.logoId) ?? null), now),
  );
}

export async function getClientDto(deps: ApiDeps, clientId: string): Promise<ClientDto> {
  const client = await clientsReadModel(deps).get(clientId);
  if (!client) throw new DomainError('U001');
  const logo = client.logoId === null ? null : await logosReadModel(deps).get(String(client.logoId));
  return toClientDto(client, logo, deps.clock());
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
