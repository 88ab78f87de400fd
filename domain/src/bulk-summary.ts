/**
 * Ricerca massiva (bulk search): the rules beside the contract of bulk-searches.ts — reading a list of
 * tax codes from a sheet's cells or from pasted text, each company's figures for the result, and the
 * fold of a job's stream `bulk-<jobId>` into its state (a decider, as decider.ts describes).
 */
import {
  BULK_MAX_CODES,
  BULK_RESULT_DAYS,
  type BulkCompanySummary,
  type BulkJobDto,
  type BulkJobStatus,
  type BulkPreviewDto,
} from './bulk-searches';
import { addMonths, romeDay, romeNoonEpochMs, threeYearsAgo } from './dates';
import type { Decider } from './decider';
import {
  deMinimisRemaining,
  isDeMinimisProcedure,
  rowsByTaxCode,
  summariesByCode,
  type BeneficiaryRow,
} from './de-minimis';
import { DomainError } from './errors';
import { printableText } from './formatting';
import type { Actor, AidRecord, BulkCodeGroup, BulkCodeWarning, BulkSearchEvent, DataSource } from './events';
import { centsToEuro, euroToCents } from './money';
import { checkTaxCode, isWellFormedTaxCode, normalizeTaxCode, parseTaxCodeList } from './tax-codes';

// ---- reading a list ----

/** What a list holds, as the preview shows it (BulkPreviewDto without its name and cost). */
export type BulkCodeList = Omit<
  BulkPreviewDto,
  'sourceName' | 'newToday' | 'cost' | 'remainingSearches' | 'affordable'
>;

/** Non-code cells listed by name in the preview; the rest are only counted. */
export const BULK_IGNORED_LISTED = 50;
/** How much of a non-code cell the preview echoes: enough to recognise it, never a whole file. */
export const BULK_IGNORED_CHARS = 60;

/** A cell as the preview echoes it: at most BULK_IGNORED_CHARS characters, an ellipsis when cut. */
export function echoedCell(cell: string): string {
  // Stryker disable next-line MethodExpression: only spares reading a whole file's worth of characters, the text echoed is the same
  const chars = Array.from(cell.slice(0, BULK_IGNORED_CHARS * 2));
  return chars.length > BULK_IGNORED_CHARS ? `${chars.slice(0, BULK_IGNORED_CHARS - 1).join('')}…` : cell;
}

/** How a header is compared with the column the user chose: case, spaces and accents aside. */
export function headerKey(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[\s_.\-/]/g, '')
    .toLowerCase();
}

/**
 * A partita IVA typed into a spreadsheet as a number loses its leading zeros (00488410010 becomes
 * 488410010): a cell of 9 or 10 digits alone is read as the 11-digit code it was.
 */
export function cellAsTaxCode(cell: string): string {
  const code = normalizeTaxCode(cell);
  return /^\d{9,10}$/.test(code) ? code.padStart(11, '0') : code;
}

/**
 * A cell the list reads as a tax code: well formed and with a digit somewhere — every partita IVA,
 * codice fiscale and foreign VAT number has one, while a header such as 'Codice fiscale' (13 letters
 * once its space is out) has none.
 */
export function looksLikeTaxCode(code: string): boolean {
  return isWellFormedTaxCode(code) && /\d/.test(code);
}

/** Headers of a column naming each company's group (impresa unica). */
const GROUP_HEADERS = ['gruppo', 'impresaunica', 'gruppoimpresaunica', 'gruppoimpresa'];
/** A group's name as a list gives it and a job keeps it: printable, at most 100 characters. */
export const bulkGroupName = (cell: string): string => printableText(cell).slice(0, 100);

const HEADER_HINTS = ['codicefiscale', 'partitaiva', 'piva', 'cf', 'cfpiva', 'codicefiscalepartitaiva'];

/**
 * The column to read when the user chose none: the one holding the most tax codes in the first rows
 * (a list of clients often starts with the company name), the leftmost on a tie, a header that says
 * "codice fiscale" or "partita IVA" first when no column holds any.
 */
function likelyColumn(rows: readonly (readonly string[])[], first: readonly string[]): number {
  const sample = rows.slice(0, 200);
  const width = Math.max(0, ...sample.map((row) => row.length));
  let best = -1;
  let bestCount = 0;
  for (let c = 0; c < width; c++) {
    let count = 0;
    for (const row of sample) if (looksLikeTaxCode(cellAsTaxCode(row[c] ?? ''))) count += 1;
    if (count > bestCount) {
      best = c;
      bestCount = count;
    }
  }
  if (best >= 0) return best;
  const hinted = first.findIndex((cell) => HEADER_HINTS.includes(headerKey(cell)));
  return Math.max(0, hinted);
}

/** Collects distinct codes, duplicates, wrong check digits and non-code pieces, in the order met. */
class ListCollector {
  readonly taxCodes: string[] = [];
  private readonly seen = new Set<string>();
  readonly warnings: BulkCodeWarning[] = [];
  readonly ignored: string[] = [];
  readonly groups: BulkCodeGroup[] = [];
  ignoredCount = 0;
  duplicates = 0;

  /** B003 as soon as the list passes BULK_MAX_CODES: the rest of a huge list is never read. */
  code(code: string, group = ''): void {
    if (this.seen.has(code)) {
      this.duplicates += 1;
      return;
    }
    if (this.taxCodes.length >= BULK_MAX_CODES) throw new DomainError('B003');
    this.seen.add(code);
    this.taxCodes.push(code);
    if (group !== '') this.groups.push({ taxCode: code, group });
    if (checkTaxCode(code) === 'invalid') this.warnings.push({ taxCode: code, reason: 'CHECK_DIGIT' });
  }

  ignore(piece: string): void {
    this.ignoredCount += 1;
    if (this.ignored.length < BULK_IGNORED_LISTED) this.ignored.push(echoedCell(piece));
  }

  /** B005 when no code was found, B003 past BULK_MAX_CODES. */
  result(column: string | null, columns: string[]): BulkCodeList {
    if (this.taxCodes.length === 0) throw new DomainError('B005');
    return {
      column,
      columns,
      taxCodes: this.taxCodes,
      warnings: this.warnings,
      ignored: this.ignored,
      ignoredCount: this.ignoredCount,
      duplicates: this.duplicates,
      groups: this.groups,
    };
  }
}

/**
 * The codes of a sheet (rows of cell texts, the first row first): the column named `column` (case,
 * spaces and accents aside; B005 naming it when the first row has no such header), else the likely
 * one. The first row is a header when its cell in that column is no tax code. Blank cells and repeats
 * are dropped (repeats counted), other non-code cells listed as ignored.
 */
export function readCodeCells(
  rows: readonly (readonly string[])[],
  column: string | null = null,
): BulkCodeList {
  // Stryker disable next-line ArrayDeclaration: a sheet without rows has no code whatever its first row is taken to be (B005)
  const first = rows[0] ?? [];
  const chosen = column?.trim() ? column.trim() : null;
  let index: number;
  if (chosen !== null) {
    index = first.findIndex((cell) => headerKey(cell) === headerKey(chosen));
    if (index < 0) throw new DomainError('B005', `Nessuna colonna «${chosen}» nella prima riga del file`);
  } else {
    index = likelyColumn(rows, first);
  }
  const head = (first[index] ?? '').trim();
  const hasHeader = head !== '' && !looksLikeTaxCode(cellAsTaxCode(head));
  const collector = new ListCollector();
  // a column headed "Gruppo" or "Impresa unica" names each company's group
  const groupIndex = hasHeader
    ? first.findIndex((cell, c) => c !== index && GROUP_HEADERS.includes(headerKey(cell)))
    : -1;
  rows.forEach((row, r) => {
    if (r === 0 && hasHeader) return;
    const cell = (row[index] ?? '').trim();
    if (cell === '') return;
    const code = cellAsTaxCode(cell);
    if (looksLikeTaxCode(code))
      collector.code(code, groupIndex >= 0 ? bulkGroupName(row[groupIndex] ?? '') : '');
    else collector.ignore(cell);
  });
  const columns = hasHeader ? first.map((cell) => cell.trim()).filter((cell) => cell !== '') : [];
  return collector.result(hasHeader ? head : null, columns);
}

/**
 * A pasted list (SPEC's multiple search rules, parseTaxCodeList), one line at a time so that the
 * repeats can be counted: codes separated by new lines, commas, semicolons, tabs or spaces.
 */
export function readPastedCodes(text: string): BulkCodeList {
  const collector = new ListCollector();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const { codes, malformed } = parseTaxCodeList(line);
    // parseTaxCodeList's codes are whole codes already (11 to 16 characters, a digit among them)
    codes.forEach((code) => collector.code(code));
    malformed.forEach((piece) => collector.ignore(piece));
  }
  return collector.result(null, []);
}

// ---- each company's figures ----

/** The instant `months` calendar months after `now` (Rome days, at noon). */
export function monthsLater(now: Date | number, months: number): number {
  return romeNoonEpochMs(addMonths(romeDay(now), months));
}

/** Why a row deserves a second look, in Italian, as the workbook's "Avvisi" column writes it. */
export const BULK_WARNING_TEXTS = {
  CHECK_DIGIT: 'Codice fiscale con carattere di controllo errato',
  NO_AIDS: 'Nessun aiuto trovato nel Registro',
  LIVE_PACED:
    'Modalità in tempo reale: il registro impone una pausa tra le consultazioni, dati dall’archivio',
  LIVE_UNAVAILABLE: 'Modalità in tempo reale: il registro non ha risposto, dati dall’archivio',
  EXCEEDED: 'Massimale de minimis superato',
} as const;

export type BulkRowWarning = keyof typeof BULK_WARNING_TEXTS;

const beneficiaryRow = (aid: AidRecord): BeneficiaryRow => ({
  dataConcessione: aid.dataConcessione,
  elementoDiAiutoCents: aid.elementoDiAiutoCents,
  isDeMinimis: isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento),
  codiceFiscaleBeneficiario: aid.codiceFiscaleBeneficiario,
  denominazioneBeneficiario: aid.denominazioneBeneficiario,
});

/**
 * One summary row per code of the list, in its order: the company's name, its aids (all of them),
 * the total of the last 3 years (every aid granted since threeYearsAgo, de minimis or not), de minimis
 * used and remaining now (summariesByCode, the search's own rule), remaining when 6 and 12 months
 * have passed (the same rolling window later on: older aids leave it, no new aid assumed), exceeded
 * when remaining now is below zero, and the row's warnings.
 */
export function bulkCompanySummaries(
  taxCodes: readonly string[],
  aids: readonly AidRecord[],
  now: Date | number,
  warningsOf: (taxCode: string) => readonly BulkRowWarning[] = () => [],
): BulkCompanySummary[] {
  const rows = aids.map(beneficiaryRow);
  const byCode = rowsByTaxCode(rows);
  const summaries = summariesByCode(taxCodes, rows, rows, now);
  // one later instant at a time over every company: the rule's windows are built once per month
  const remainingAt = (instant: number) =>
    summaries.map((summary) => deMinimisRemaining(byCode.get(summary.taxCode) ?? [], instant));
  const in6 = remainingAt(monthsLater(now, 6));
  const in12 = remainingAt(monthsLater(now, 12));
  const since = threeYearsAgo(now);
  return summaries.map((summary, i) => {
    const own = byCode.get(summary.taxCode) ?? [];
    let last3YearsCents = 0;
    for (const row of own) if (row.dataConcessione >= since) last3YearsCents += row.elementoDiAiutoCents;
    const exceeded = euroToCents(summary.remainingDeMinimis) < 0;
    const warnings: BulkRowWarning[] = [...warningsOf(summary.taxCode)];
    if (own.length === 0) warnings.push('NO_AIDS');
    if (exceeded) warnings.push('EXCEEDED');
    return {
      taxCode: summary.taxCode,
      name: summary.name,
      aids: own.length,
      totalLast3Years: centsToEuro(last3YearsCents),
      deMinimisUsed: summary.deMinimisUsed,
      remainingNow: summary.remainingDeMinimis,
      remainingIn6Months: in6[i]!,
      remainingIn12Months: in12[i]!,
      exceeded,
      warnings: warnings.map((warning) => BULK_WARNING_TEXTS[warning]),
    };
  });
}

/** The figures BulkSearchCompleted carries. */
export function bulkTotals(summaries: readonly BulkCompanySummary[]): {
  companiesWithAids: number;
  aids: number;
  overCeiling: number;
} {
  let companiesWithAids = 0;
  let aids = 0;
  let overCeiling = 0;
  for (const summary of summaries) {
    if (summary.aids > 0) companiesWithAids += 1;
    aids += summary.aids;
    if (summary.exceeded) overCeiling += 1;
  }
  return { companiesWithAids, aids, overCeiling };
}

// ---- a job's stream ----

/** A job's state, folded from its stream (the codes stay on the stream: the runner reads them there). */
export interface BulkJobState extends Omit<BulkJobDto, 'status'> {
  userId: string;
  clientId: string | null;
  by: Actor | null;
  dataSource: DataSource;
  /**
   * AWAITING_CHARGE from a client's request until its charge is recorded, QUEUED until the first
   * progress, then RUNNING, then COMPLETED or FAILED (EXPIRED is a view of time)
   */
  status: Exclude<BulkJobStatus, 'EXPIRED'> | 'NONE' | 'AWAITING_CHARGE';
  /** bytes of the results kept (workbook and PDF), once completed; null before and on older jobs */
  resultBytes: number | null;
}

export const initialBulkJobState: BulkJobState = {
  jobId: '',
  userId: '',
  clientId: null,
  by: null,
  sourceName: '',
  dataSource: 'ARCHIVE',
  status: 'NONE',
  totalCodes: 0,
  doneCodes: 0,
  cost: 0,
  requestedAt: '',
  completedAt: null,
  expiresAt: null,
  companiesWithAids: null,
  aids: null,
  overCeiling: null,
  failureCode: null,
  downloaded: false,
  resultBytes: null,
};

export function evolveBulkJob(state: BulkJobState, event: BulkSearchEvent): BulkJobState {
  switch (event.type) {
    case 'BulkSearchRequested': {
      const { jobId, userId, clientId, by, at, sourceName, taxCodes, dataSource, cost, awaitingCharge } =
        event.data;
      return {
        ...initialBulkJobState,
        jobId,
        userId,
        clientId,
        by,
        sourceName,
        dataSource,
        status: awaitingCharge ? 'AWAITING_CHARGE' : 'QUEUED',
        totalCodes: taxCodes.length,
        cost,
        requestedAt: at,
      };
    }
    case 'BulkSearchCharged':
      return state.status === 'AWAITING_CHARGE'
        ? { ...state, status: 'QUEUED', cost: event.data.cost }
        : state;
    case 'BulkSearchProgressed':
      // a job resumed after a restart counts again from zero: what was shown never goes back
      if (state.status !== 'QUEUED' && state.status !== 'RUNNING') return state;
      return { ...state, status: 'RUNNING', doneCodes: Math.max(state.doneCodes, event.data.doneCodes) };
    case 'BulkSearchCompleted': {
      const { at, companiesWithAids, aids, overCeiling, expiresAt, resultBytes } = event.data;
      return {
        ...state,
        resultBytes: resultBytes ?? null,
        status: 'COMPLETED',
        doneCodes: state.totalCodes,
        completedAt: at,
        expiresAt,
        companiesWithAids,
        aids,
        overCeiling,
      };
    }
    case 'BulkSearchFailed':
      return { ...state, status: 'FAILED', completedAt: event.data.at, failureCode: event.data.code };
    case 'BulkResultDownloaded':
      return { ...state, downloaded: true };
  }
}

export const isBulkJobOpen = (state: Pick<BulkJobState, 'status'>): boolean =>
  state.status === 'QUEUED' || state.status === 'RUNNING';

/** A client's job requested and not yet charged: it must not run, nor be left so for ever. */
export const isBulkJobAwaitingCharge = (state: Pick<BulkJobState, 'status'>): boolean =>
  state.status === 'AWAITING_CHARGE';

/**
 * A job refused at its request (U004, A002: another job of the client's took the searches between
 * the quota's decision and the charge): the user was answered the refusal, so it is no job of theirs.
 */
export function isBulkJobRefused(state: Pick<BulkJobState, 'status' | 'failureCode'>): boolean {
  // Stryker disable next-line ConditionalExpression: a failure code comes only with BulkSearchFailed, which ends the job as FAILED for good
  if (state.status !== 'FAILED') return false;
  return state.failureCode === 'U004' || state.failureCode === 'A002';
}

/** Whether the results may still be downloaded at `now`. */
export function isBulkResultExpired(state: Pick<BulkJobState, 'expiresAt'>, now: Date | number): boolean {
  return state.expiresAt !== null && +now >= Date.parse(state.expiresAt);
}

export function bulkExpiryOf(completedAt: Date | number): string {
  return new Date(+completedAt + BULK_RESULT_DAYS * 86_400_000).toISOString();
}

export function bulkJobDto(state: BulkJobState, now: Date | number): BulkJobDto {
  // Stryker disable next-line ConditionalExpression: only a completed job has an expiry (BulkSearchCompleted sets it, and the decider lets nothing but downloads follow)
  const completed = state.status === 'COMPLETED';
  const status: BulkJobStatus =
    completed && isBulkResultExpired(state, now)
      ? 'EXPIRED'
      : state.status === 'NONE' || state.status === 'AWAITING_CHARGE'
        ? 'QUEUED'
        : state.status;
  return {
    jobId: state.jobId,
    sourceName: state.sourceName,
    status,
    totalCodes: state.totalCodes,
    doneCodes: state.doneCodes,
    cost: state.cost,
    requestedAt: state.requestedAt,
    completedAt: state.completedAt,
    expiresAt: state.expiresAt,
    companiesWithAids: state.companiesWithAids,
    aids: state.aids,
    overCeiling: state.overCeiling,
    failureCode: state.failureCode,
    downloaded: state.downloaded,
  };
}

/** What is asked of a job's stream. */
export type BulkJobCommand =
  | { type: 'RequestBulkSearch'; data: Extract<BulkSearchEvent, { type: 'BulkSearchRequested' }>['data'] }
  | { type: 'RecordCharge'; data: { at: string; cost: number } }
  | { type: 'RecordProgress'; data: { doneCodes: number; at: string } }
  | {
      type: 'CompleteBulkSearch';
      data: {
        at: string;
        companiesWithAids: number;
        aids: number;
        overCeiling: number;
        resultBytes?: number;
      };
    }
  | { type: 'FailBulkSearch'; data: { at: string; code: string; reason: string } }
  | { type: 'RecordDownload'; data: { at: string; by: Actor; kind: 'sheet' | 'pdf' } };

/**
 * The job's rule: requested once; a client's job charged once, before it runs; progress only forward
 * and only while it runs; completed or failed once (a job awaiting its charge may fail: nothing
 * charged); a download only of a completed job before it expires (B006 after, B007 when there is none).
 */
export const bulkJobDecider: Decider<BulkJobCommand, BulkSearchEvent, BulkJobState> = {
  initialState: initialBulkJobState,
  evolve: evolveBulkJob,
  decide(command, state) {
    const jobId = state.jobId;
    switch (command.type) {
      case 'RequestBulkSearch':
        return state.status === 'NONE' ? [{ type: 'BulkSearchRequested', data: command.data }] : [];
      case 'RecordCharge':
        if (!isBulkJobAwaitingCharge(state)) return [];
        return [{ type: 'BulkSearchCharged', data: { jobId, ...command.data } }];
      case 'RecordProgress':
        if (!isBulkJobOpen(state) || command.data.doneCodes <= state.doneCodes) return [];
        return [
          {
            type: 'BulkSearchProgressed',
            data: {
              jobId,
              doneCodes: Math.min(command.data.doneCodes, state.totalCodes),
              at: command.data.at,
            },
          },
        ];
      case 'CompleteBulkSearch':
        if (!isBulkJobOpen(state)) return [];
        return [
          {
            type: 'BulkSearchCompleted',
            data: { jobId, ...command.data, expiresAt: bulkExpiryOf(Date.parse(command.data.at)) },
          },
        ];
      case 'FailBulkSearch':
        if (!isBulkJobOpen(state) && !isBulkJobAwaitingCharge(state)) return [];
        return [{ type: 'BulkSearchFailed', data: { jobId, ...command.data } }];
      case 'RecordDownload':
        if (state.status === 'NONE') throw new DomainError('B007');
        if (state.status !== 'COMPLETED') throw new DomainError('B006', 'Il risultato non è ancora pronto');
        if (isBulkResultExpired(state, Date.parse(command.data.at))) throw new DomainError('B006');
        return [{ type: 'BulkResultDownloaded', data: { jobId, ...command.data } }];
    }
  },
};
