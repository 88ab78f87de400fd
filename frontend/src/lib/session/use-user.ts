import type { UserDto } from '@rna/domain';
import { useAppSelector } from '../hooks';
import { selectUser } from './user-slice';

/** The signed-in user; screens under the signed-in layout can rely on it being set. */
export function useUser(): UserDto | null | undefined {
  return useAppSelector(selectUser);
}

/** SPEC §6 capabilities. */
export const canUseVariationAlerts = (user: UserDto): boolean =>
  user.role === 'ADMIN' || user.enableVariationAlerts;
export const canDownloadPdf = (user: UserDto): boolean => user.role === 'ADMIN' || user.pdfEnabled;
