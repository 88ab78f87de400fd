/** Query parameters shared by the look-up and both reports. */
import { z } from 'zod';

const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((value) => value === 'true');
const codes = z.union([z.string().max(2_000), z.array(z.string().max(2_000)).max(50)]).optional();

/**
 * `taxCodes=A,B` (the contract) or `taxCode=A,B` (the app's own address bar name); `details=true` adds
 * each aid's references (the "Dettaglio aiuti" view).
 */
export const searchQuerySchema = z
  .object({
    taxCodes: codes,
    taxCode: codes,
    deMinimis: flag,
    last3Years: flag,
    details: flag,
    // one of the user's groups (impresa unica): its members are searched, as one undertaking
    group: z.string().min(1).max(100).optional(),
  })
  .strict()
  .transform(({ taxCodes, taxCode, deMinimis, last3Years, details, group }) => ({
    taxCodes: [taxCodes ?? [], taxCode ?? []].flat(),
    deMinimis,
    last3Years,
    details,
    group,
  }));

/**
 * The reports' query: the search's, and where the de minimis headroom is asked for (one of the
 * user's groups, a planned date, a regime; today and GENERAL by default).
 */
export const reportQuerySchema = z
  .object({
    taxCodes: codes,
    taxCode: codes,
    deMinimis: flag,
    last3Years: flag,
    group: z.string().min(1).max(100).optional(),
    date: z.string().max(20).optional(),
    regime: z.string().max(20).optional(),
  })
  .strict()
  .transform(({ taxCodes, taxCode, ...rest }) => ({
    taxCodes: [taxCodes ?? [], taxCode ?? []].flat(),
    ...rest,
  }));
