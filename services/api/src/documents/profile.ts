/** What the search features need to know about the signed-in user, from the accounts read model. */
import { DomainError } from '@rna/domain';
import { clientsReadModel, DEFAULT_LOGO_ID } from '../accounts/read-models';
import type { ApiDeps } from '../http/deps';
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
