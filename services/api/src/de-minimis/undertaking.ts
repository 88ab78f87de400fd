/**
 * Who and when a de minimis question is about, read the same way by the headroom, the reports and the
 * self-declaration: the planned date and regime are checked first (J001 / D001 / D002), then the
 * user's own group (I003) or the codes asked (T001 / T002), all before anything is charged.
 */
import { z } from 'zod';
import {
  assertHeadroomRequest,
  parseSearchTaxCodes,
  todayInRome,
  type DeMinimisRegime,
  type UndertakingGroupDto,
} from '@rna/domain';
import { findOwnGroup } from '../groups/commands';
import type { ApiDeps } from '../http/deps';
import type { Principal } from '../http/route';

const codes = z.union([z.string().max(2_000), z.array(z.string().max(2_000)).max(50)]).optional();

/** `taxCodes=A,B` or `group=<id>`, and a planned `date` and `regime` (today and GENERAL by default). */
export const undertakingQuerySchema = z
  .object({
    taxCodes: codes,
    group: z.string().min(1).max(100).optional(),
    date: z.string().max(20).optional(),
    regime: z.string().max(20).optional(),
  })
  .strict();

export interface UndertakingQuery {
  taxCodes?: string | string[];
  group?: string;
  date?: string;
  regime?: string;
}

export interface UndertakingAsked {
  /** YYYY-MM-DD */
  date: string;
  regime: DeMinimisRegime;
  /** the user's group (impresa unica) when one was named: its members are the codes */
  group: UndertakingGroupDto | null;
  taxCodes: string[];
}

export async function undertakingAsked(
  deps: ApiDeps,
  principal: Principal,
  query: UndertakingQuery,
): Promise<UndertakingAsked> {
  const date = query.date ?? todayInRome(deps.clock());
  const regime = query.regime ?? 'GENERAL';
  assertHeadroomRequest(date, regime);
  const group = query.group ? await findOwnGroup(deps.documents, principal.userId, query.group) : null;
  const taxCodes = group
    ? group.members.map((member) => member.taxCode)
    : parseSearchTaxCodes(query.taxCodes);
  return { date, regime, group, taxCodes };
}
