/** What the search features need to know about the signed-in user, from the accounts read model. */
import { DomainError, type ReportKind } from '@rna/domain';
import { clientsReadModel, DEFAULT_LOGO_ID } from '../accounts/read-models';
import type { ApiDeps } from '../http/deps';
import { countPaidRequest } from '../http/paid-work-limit';
import { actorOf, type Principal } from '../http/route';
import type { Searcher } from './search';

export interface SearchProfile extends Searcher {
  pdfEnabled: boolean;
  enableVariationAlerts: boolean;
  logoId: number;
}

/** ADMIN may do everything and reports with the default logo; a CLIENT as its administrator set it up. */
export async function searchProfile(deps: ApiDeps, principal: Principal): Promise<SearchProfile> {
  const actor = actorOf(principal);
  if (principal.role === 'ADMIN') {
    return {
      actor,
      fixedTaxCode: null,
      pdfEnabled: true,
      enableVariationAlerts: true,
      logoId: DEFAULT_LOGO_ID,
    };
  }
  const client = await clientsReadModel(deps).get(principal.userId);
  if (!client) throw new DomainError('U001');
  return {
    actor,
    fixedTaxCode: client.taxCode,
    pdfEnabled: client.pdfEnabled,
    enableVariationAlerts: client.enableVariationAlerts,
    logoId: client.logoId ?? DEFAULT_LOGO_ID,
  };
}

/**
 * The profile behind a paid download, once the request is counted against the per-minute limit: a
 * PDF (report or self-declaration) is refused with P001 to a client without pdfEnabled, and with
 * G001 when this API has no renderer.
 */
export async function downloadProfile(
  deps: ApiDeps,
  principal: Principal,
  kind: ReportKind,
): Promise<SearchProfile> {
  await countPaidRequest(deps, principal.userId);
  const profile = await searchProfile(deps, principal);
  if (kind !== 'sheet' && !profile.pdfEnabled) throw new DomainError('P001');
  if (kind !== 'sheet' && !deps.pdfRenderer) throw new DomainError('G001', 'Generazione PDF non disponibile');
  return profile;
}
