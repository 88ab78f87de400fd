/** UserDto for the signed-in user: ADMIN has every capability; a CLIENT's come from its read model. */
import { DomainError, type LogoRef, type UserDto } from '@rna/domain';
import { clientsReadModel, DEFAULT_LOGO_ID, findLogo } from '../accounts/read-models';
import type { ApiDeps } from '../http/deps';
import type { Principal } from '../http/route';

export async function userDto(deps: ApiDeps, principal: Principal): Promise<UserDto> {
  if (principal.role === 'ADMIN') {
    const logo = await findLogo(deps, DEFAULT_LOGO_ID);
    return {
      id: principal.userId,
      email: principal.email,
      role: 'ADMIN',
      taxCode: null,
      pdfEnabled: true,
      enableVariationAlerts: true,
      logo: logo ? { id: logo.logoId, name: logo.name, fileName: logo.fileName } : null,
    };
  }
  const client = await clientsReadModel(deps).get(principal.userId);
  if (!client) throw new DomainError('U001');
  const logo = await findLogo(deps, client.logoId);
  const logoRef: LogoRef | null = logo ? { id: logo.logoId, name: logo.name, fileName: logo.fileName } : null;
  return {
    id: client.id,
    email: client.email,
    role: 'CLIENT',
    taxCode: client.taxCode,
    pdfEnabled: client.pdfEnabled,
    enableVariationAlerts: client.enableVariationAlerts,
    logo: logoRef,
    remainingSearches: client.remainingSearches,
    availableYearlySearches: client.availableYearlySearches,
    endDate: client.endDate,
  };
}
