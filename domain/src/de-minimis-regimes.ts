/**
 * De minimis as the law counts it, for a planned grant: the single undertaking's de minimis aids
 * granted in the three years up to the planned date, each under its regime's ceiling and the
 * cumulation rules between regimes. The spec's 36-month view (de-minimis.ts) stays as it is; this is
 * the figure a granting body checks before it grants.
 *
 * Sources and the readings chosen (each rule lives here, once):
 * - The window (Reg. (EU) 2023/2831 art. 3(2) and the register's FAQ 15.1): for a grant on day D,
 *   every de minimis aid granted after D − 3 years and up to D itself counts, whatever regulation it
 *   was granted under (aids under 1407/2013 before 2024 count too). D − 3 years of 29 February is
 *   28 February. Planned dates before 2024-01-01 are refused (D001): other rules (fiscal years,
 *   200,000 €) applied then.
 * - Regimes by regulation number: GENERAL = 2023/2831, 1407/2013, 1998/2006; AGRICULTURE = 1408/2013;
 *   FISHERIES = 717/2014; SIEG (services of general economic interest) = 2023/2832, 360/2012. Any other
 *   de minimis aid counts as GENERAL and is flagged (`unknownRegulation`).
 * - Ceilings: GENERAL 300,000 € (2023/2831 art. 3); SIEG 750,000 € (2023/2832 art. 3), read as a cap on
 *   SIEG + GENERAL together (2023/2831 art. 5(1), 2023/2832 art. 5(1)) — one of two contested readings,
 *   the stricter one; AGRICULTURE 50,000 € over any three years from 16-12-2024 (1408/2013 as amended by
 *   2024/3118), 25,000 € before (as amended by 2019/316, a Member State keeping a central register);
 *   FISHERIES 40,000 € (717/2014 as amended by 2023/2391), read over the same rolling three years as
 *   the others (the other contested reading: fiscal years), and FISHERIES + AGRICULTURE within the
 *   fisheries ceiling; agricultural and fisheries aids count towards the general 300,000 € as well.
 * - Agricultural and fisheries aids are mostly recorded in other registers (SIAN, SIPA): figures of
 *   those regimes drawn from the RNA alone may be incomplete (the screen says so).
 */
import type { DeMinimisRegime, HeadroomDto, HeadroomLimitDto } from './api';
import { DE_MINIMIS_REGIMES } from './api';
import { addDays, addYears, parseIsoDay } from './dates';
import { DomainError } from './errors';
import { centsToDecimalString } from './money';

/** The first planned grant date the rules apply to (Reg. 2023/2831 applies from 1 January 2024). */
export const HEADROOM_FIRST_DATE = '2024-01-01';
/** Agriculture's ceiling rose to 50,000 € from this day (Reg. 2024/3118). */
export const AGRICULTURE_50K_FROM = '2024-12-16';

/** Regulation number / year → regime (the numbers as the register writes them, e.g. CE2831/23). */
const REGULATIONS: readonly { number: string; year: string; regime: DeMinimisRegime }[] = [
  { number: '2831', year: '2023', regime: 'GENERAL' },
  { number: '1407', year: '2013', regime: 'GENERAL' },
  { number: '1998', year: '2006', regime: 'GENERAL' },
  { number: '1408', year: '2013', regime: 'AGRICULTURE' },
  { number: '717', year: '2014', regime: 'FISHERIES' },
  { number: '2832', year: '2023', regime: 'SIEG' },
  { number: '360', year: '2012', regime: 'SIEG' },
];

export interface RegimeOfAid {
  regime: DeMinimisRegime;
  /** no known de minimis regulation was named: counted as GENERAL, flagged */
  unknownRegulation: boolean;
}

/**
 * The regime of a de minimis aid from its regulation's code or description ('CE2831/23',
 * 'Regolamento (UE) n. 2023/2831', 'Reg. 1408/2013'…): the number and its year, in either order.
 */
export function regimeOfRegulation(codRegolamento: string, desRegolamento = ''): RegimeOfAid {
  for (const text of [codRegolamento, desRegolamento]) {
    // "n. 2023 / 2831" → "2023/2831"; pairs of digits around a slash
    const compact = text.replace(/\s*\/\s*/g, '/');
    for (const match of compact.matchAll(/(?<!\d)(\d{2,4})\/(\d{2,4})(?!\d)/g)) {
      const [a, b] = [match[1]!, match[2]!];
      const found = REGULATIONS.find(
        (r) =>
          (a === r.number && (b === r.year || b === r.year.slice(2))) ||
          (b === r.number && (a === r.year || a === r.year.slice(2))),
      );
      if (found) return { regime: found.regime, unknownRegulation: false };
    }
  }
  return { regime: 'GENERAL', unknownRegulation: true };
}

/** The first day counted for a grant on `date`: the day after `date` − 3 years. */
export function headroomWindowStart(date: string): string {
  return addDays(addYears(date, -3), 1);
}

/** The day an aid granted on `grantDay` leaves the window: the first planned date it no longer counts for. */
export function releaseDay(grantDay: string): string {
  const candidate = addYears(grantDay, 3);
  return headroomWindowStart(candidate) > grantDay ? candidate : addDays(candidate, 1);
}

const EURO = 100;
interface Limit {
  ceilingCents: number;
  regimes: readonly DeMinimisRegime[];
}

/** The limits a planned aid of `regime` granted on `date` must respect (the table in the module comment). */
export function limitsFor(regime: DeMinimisRegime, date: string): Limit[] {
  const all3 = { ceilingCents: 300_000 * EURO, regimes: ['GENERAL', 'AGRICULTURE', 'FISHERIES'] as const };
  const withSieg = { ceilingCents: 750_000 * EURO, regimes: ['GENERAL', 'SIEG'] as const };
  const agricultureCeiling = (date >= AGRICULTURE_50K_FROM ? 50_000 : 25_000) * EURO;
  switch (regime) {
    case 'GENERAL':
      return [all3, withSieg];
    case 'AGRICULTURE':
      return [{ ceilingCents: agricultureCeiling, regimes: ['AGRICULTURE'] }, all3];
    case 'FISHERIES':
      return [
        { ceilingCents: 40_000 * EURO, regimes: ['FISHERIES'] },
        { ceilingCents: 40_000 * EURO, regimes: ['FISHERIES', 'AGRICULTURE'] },
        all3,
      ];
    case 'SIEG':
      return [withSieg];
  }
}

/** What the rules need of an aid. */
export interface HeadroomAid {
  taxCode: string;
  name: string | null;
  dataConcessione: string;
  elementoDiAiutoCents: number;
  isDeMinimis: boolean;
  codRegolamento: string;
  desRegolamento: string;
}

export function isDeMinimisRegime(value: string): value is DeMinimisRegime {
  return (DE_MINIMIS_REGIMES as readonly string[]).includes(value);
}

/** D001 for a planned date that is no real day or is before 2024; D002 for an unknown regime. */
export function assertHeadroomRequest(date: string, regime: string): asserts regime is DeMinimisRegime {
  if (!parseIsoDay(date)) throw new DomainError('J001', `Data non valida: "${date}" (atteso AAAA-MM-GG)`);
  if (date < HEADROOM_FIRST_DATE) throw new DomainError('D001');
  if (!isDeMinimisRegime(regime)) throw new DomainError('D002');
}

const zeroByRegime = (): Record<DeMinimisRegime, number> => ({
  GENERAL: 0,
  AGRICULTURE: 0,
  FISHERIES: 0,
  SIEG: 0,
});
const asStrings = (cents: Record<DeMinimisRegime, number>): Record<DeMinimisRegime, string> => ({
  GENERAL: centsToDecimalString(cents.GENERAL),
  AGRICULTURE: centsToDecimalString(cents.AGRICULTURE),
  FISHERIES: centsToDecimalString(cents.FISHERIES),
  SIEG: centsToDecimalString(cents.SIEG),
});

/** A de minimis aid of the undertaking granted inside the window of a planned grant. */
export interface WindowAid<A extends HeadroomAid = HeadroomAid> {
  aid: A;
  /** the regime it counts in (GENERAL when its regulation is not recognised) */
  regime: DeMinimisRegime;
  unknownRegulation: boolean;
  /** it counts towards a limit of the planned regime (an agricultural aid does not, for a SIEG grant) */
  limited: boolean;
}

/**
 * The aids the headroom of a planned aid of `regime` on `date` is made of: the de minimis aids of the
 * codes of `taxCodes` granted in the window, each with its regime. The headroom and the self-declaration
 * read this one list, so the aids declared are the aids counted.
 */
export function headroomWindowAids<A extends HeadroomAid>(
  taxCodes: readonly string[],
  aids: readonly A[],
  date: string,
  regime: DeMinimisRegime,
): WindowAid<A>[] {
  assertHeadroomRequest(date, regime);
  const windowStart = headroomWindowStart(date);
  const relevant = new Set(limitsFor(regime, date).flatMap((limit) => limit.regimes));
  const codes = new Set(taxCodes);
  const counted: WindowAid<A>[] = [];
  for (const aid of aids) {
    if (!codes.has(aid.taxCode)) continue;
    if (!aid.isDeMinimis || aid.dataConcessione < windowStart || aid.dataConcessione > date) continue;
    const found = regimeOfRegulation(aid.codRegolamento, aid.desRegolamento);
    counted.push({ aid, ...found, limited: relevant.has(found.regime) });
  }
  return counted;
}

/**
 * The undertaking's headroom for a planned aid of `regime` granted on `date`: the aids of every code
 * of `taxCodes` (the undertaking's members) counted together. Everything but the group is filled in.
 */
export function deMinimisHeadroom(
  taxCodes: readonly string[],
  aids: readonly HeadroomAid[],
  date: string,
  regime: DeMinimisRegime,
): Omit<HeadroomDto, 'group'> {
  assertHeadroomRequest(date, regime);
  const windowStart = headroomWindowStart(date);
  const limits = limitsFor(regime, date);
  const used = zeroByRegime();
  const perCode = new Map<string, { name: string | null; used: Record<DeMinimisRegime, number> }>(
    taxCodes.map((code) => [code, { name: null, used: zeroByRegime() }]),
  );
  const releases = new Map<string, number>();
  let unknownRegulationAids = 0;
  // a company is named after any of its aids, counted or not
  for (const aid of aids) {
    const company = perCode.get(aid.taxCode);
    if (company) company.name ??= aid.name;
  }
  for (const { aid, regime: aidRegime, unknownRegulation, limited } of headroomWindowAids(
    taxCodes,
    aids,
    date,
    regime,
  )) {
    if (unknownRegulation) unknownRegulationAids += 1;
    used[aidRegime] += aid.elementoDiAiutoCents;
    // headroomWindowAids yields the members' aids only
    perCode.get(aid.taxCode)!.used[aidRegime] += aid.elementoDiAiutoCents;
    if (limited) {
      const day = releaseDay(aid.dataConcessione);
      releases.set(day, (releases.get(day) ?? 0) + aid.elementoDiAiutoCents);
    }
  }
  // what each limit leaves (negative when exceeded): the DTO clamps it, the headroom is the least
  const left = limits.map((limit) => limit.ceilingCents - limit.regimes.reduce((sum, r) => sum + used[r], 0));
  const limitDtos: HeadroomLimitDto[] = limits.map((limit, i) => ({
    ceiling: centsToDecimalString(limit.ceilingCents),
    regimes: [...limit.regimes],
    used: centsToDecimalString(limit.ceilingCents - left[i]!),
    remaining: centsToDecimalString(Math.max(0, left[i]!)),
  }));
  const headroomCents = Math.max(0, Math.min(...left));
  return {
    taxCodes: [...taxCodes],
    date,
    regime,
    windowStart,
    usedByRegime: asStrings(used),
    limits: limitDtos,
    headroom: centsToDecimalString(headroomCents),
    releases: [...releases.entries()]
      .filter(([, cents]) => cents !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([day, cents]) => ({ date: day, amount: centsToDecimalString(cents) })),
    perCompany: [...perCode.entries()].map(([taxCode, company]) => ({
      taxCode,
      name: company.name,
      usedByRegime: asStrings(company.used),
    })),
    unknownRegulationAids,
  };
}
