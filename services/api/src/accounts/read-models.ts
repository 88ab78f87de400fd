/** Read access to the account read models kept by the projector. */
import {
  CLIENTS_COLLECTION,
  LOGOS_COLLECTION,
  type ClientReadModel,
  type LogoReadModel,
} from '@rna/read-models/accounts';
import type { Collection } from '@rna/infra';
import type { ApiDeps } from '../http/deps';

export function clientsReadModel(deps: ApiDeps): Collection<ClientReadModel> {
  return deps.documents.collection<ClientReadModel>(CLIENTS_COLLECTION);
}

export function logosReadModel(deps: ApiDeps): Collection<LogoReadModel> {
  return deps.documents.collection<LogoReadModel>(LOGOS_COLLECTION);
}

/** A live (not deleted) logo, or null. */
export async function findLogo(deps: ApiDeps, logoId: number | null): Promise<LogoReadModel | null> {
  if (logoId === null) return null;
  const logo = await logosReadModel(deps).get(String(logoId));
  return logo && !logo.deleted ? logo : null;
}

export { DEFAULT_LOGO_ID } from '@rna/domain';
