/**
 * The HTTP contract between the front end and the API (all paths under /api).
 * Timestamps are epoch milliseconds unless the field says otherwise.
 */
import type { Actor, Role, RegisterFileStatus, ReportKind } from './events';
import type { SyncScope } from './archive-files';
import type { RegisterRecordRejection } from './register-record-rejections';

export type ClientStatusLabel = 'Scaduto' | 'Attivo' | 'In attesa';

/** The built-in logo every client has until another is assigned ("Logo predefinito"). */
export const DEFAULT_LOGO_ID = -1;

export interface LogoRef {
  id: number;
  name: string;
  fileName: string;
}

/** GET /users/me */
export interface UserDto {
  id: string;
  email: string;
  role: Role;
  /** Fixed tax code: the user may search only this code. */
  taxCode: string | null;
  pdfEnabled: boolean;
  enableVariationAlerts: boolean;
  logo: LogoRef | null;
  /** CLIENT only */
  remainingSearches?: number;
  availableYearlySearches?: number;
  endDate?: number;
}

/** POST /auth/login, POST /auth/refresh */
export interface AuthTokensDto {
  accessToken: string;
  refreshToken: string;
  user: UserDto;
  /**
   * Signed in with the invitation code: the client must choose its own password first
   * (PUT /users/change-password with the code as the current one); every other route answers A004.
   */
  passwordChangeRequired?: true;
}

/** GET /clients/me */
export interface MyClientDto {
  id: string;
  email: string;
  remainingSearches: number;
  availableYearlySearches: number;
  endDate: number;
}

/** GET /clients (ADMIN) */
export interface ClientDto {
  id: string;
  email: string;
  taxCode: string | null;
  /** When the administrator invited the client. */
  invitedAt: number;
  /** false until the client, at its first sign-in, chose its own password */
  active: boolean;
  activationTime: number | null;
  lastAccessTime: number | null;
  endDate: number;
  availableYearlySearches: number;
  remainingSearches: number;
  enableVariationAlerts: boolean;
  pdfEnabled: boolean;
  logo: { id: number; name: string } | null;
  status: ClientStatusLabel;
}

/**
 * POST /clients/invite: the new client and, this once, the invitation code the mail carries (never
 * shown again: it only opens the client's first sign-in, where the client chooses a password).
 */
export interface InvitedClientDto extends ClientDto {
  invitationCode: string;
}

export interface PdfConfigDto {
  primaryColor: string;
  footer1: string;
  footer2: string;
}

/** GET /logos; images at /api/images/<fileName> */
export interface LogoDto {
  id: number;
  name: string;
  fileName: string;
  subRenewUrl: string;
  pdfConfig: PdfConfigDto;
}

/** One row of GET /documents: SPEC §3 "state-aid result row". Amounts are numeric strings ("1234.56"). */
export interface AidRowDto {
  id: string;
  idComponenteAiuto: string;
  codiceFiscaleBeneficiario: string;
  denominazioneBeneficiario: string;
  soggettoConcedente: string;
  titoloMisura: string;
  /** dd-mm-yyyy */
  dataConcessione: string;
  cup: string;
  desProcedimento: string;
  desRegolamento: string;
  isDeMinimis: boolean;
  importoNominale: string;
  elementoDiAiuto: string;
  /** the aid's own references, for the reports that cite it (absent from the compact wire answer) */
  cor?: string;
  car?: string;
  codRegolamento?: string;
  titoloProgetto?: string;
  desObiettivo?: string;
  settoreAttivita?: string;
  regioneBeneficiario?: string;
  /** the register file the aid came from (2024_02 or 2024_02_002) */
  sourceFile?: string;
}

export interface DocumentStatsDto {
  totalDocuments: number;
  /** euro, 2 decimals */
  totalImport: number;
  totalImportDeMinimis: number;
  /** the current month's remaining de minimis allowance (may be negative) */
  remainingDeMinimis: number;
}

/** One searched company's own figures in a search of several (SPEC: whose row is it). */
export interface CodeSummaryDto {
  taxCode: string;
  /** the beneficiary's name as the register writes it ('' when the code has no aid) */
  name: string;
  /** aids shown (display filters apply) within the last 3 years, and their total in euro */
  totalDocuments: number;
  totalImport: number;
  /** the de minimis used and left now, in euro, whatever the display filters */
  deMinimisUsed: number;
  remainingDeMinimis: number;
}

export interface DeMinimisPointDto {
  /** MM/YY */
  month: string;
  total: number;
  remaining: number;
}

/**
 * A search as the server computes it, every row in full: what the Excel and PDF reports are made of.
 * GET /documents answers the lighter SearchAnswerDto built from it.
 */
export interface SearchResultDto {
  taxCodes: string[];
  deMinimis: boolean;
  last3Years: boolean;
  dataSource: 'ARCHIVE' | 'LIVE';
  /** when the answer's data was last updated: ms, null = never, -1 = live data */
  lastUpdate: number | null;
  rows: AidRowDto[];
  /** where each searched code's rows come from, in the order of taxCodes */
  sources: CodeSourceDto[];
  stats: DocumentStatsDto;
  /** each searched code's own figures, in the order of taxCodes */
  perCode: CodeSummaryDto[];
  /** the 36 months of the undertaking's de minimis (for several unrelated companies: deMinimisOf's) */
  deMinimisSeries: DeMinimisPointDto[];
  /**
   * Several unrelated companies searched: the company whose allowance the remaining card and the
   * chart show (the least left); the ceiling is per undertaking, so they are never added up. Null
   * for one company or a group counted as one undertaking.
   */
  deMinimisOf?: { taxCode: string; name: string } | null;
  /** CLIENT: remaining searches after this one */
  remainingSearches?: number;
}

/**
 * One row of GET /documents: the aid's own values under SPEC §3's names (desProcedimento included, so
 * that a client written to the spec reads the procedure), and indexes into the answer's lists of
 * measure titles and beneficiaries, which repeat across thousands of rows and so are sent once.
 */
export interface AidListRowDto {
  /** the aid component's id */
  idComponenteAiuto: string;
  /** dd-mm-yyyy */
  dataConcessione: string;
  /** the register's procedure text (the screen says "De minimis" when isDeMinimis) */
  desProcedimento: string;
  isDeMinimis: boolean;
  /** numeric string ("1234.56") */
  elementoDiAiuto: string;
  /** index into SearchAnswerDto.measures (the measure's title) */
  measure: number;
  /** index into SearchAnswerDto.beneficiaries */
  beneficiary: number;
}

/**
 * GET /documents?…&details=true: each aid's references for the "Dettaglio aiuti" view, by column, the
 * i-th value of each column belonging to rows[i]. Columns, not objects: per aid they are mostly
 * unique texts (COR, project title), and 7,888 aids' field names alone would weigh a megabyte.
 * Granting bodies and regulations repeat, and are sent once.
 */
export interface AidDetailColumnsDto {
  cor: string[];
  car: string[];
  /** as the register writes it (often "n.d.") */
  cup: string[];
  /** numeric strings ("1234.56") */
  importoNominale: string[];
  titoloProgetto: string[];
  /** index into grantors (soggettoConcedente) */
  grantor: number[];
  /** index into regulations */
  regulation: number[];
  grantors: string[];
  regulations: RegulationDto[];
}

export interface BeneficiaryDto {
  taxCode: string;
  name: string;
}

/** The EU or national regulation an aid is granted under: codRegolamento and desRegolamento. */
export interface RegulationDto {
  code: string;
  text: string;
}

/**
 * GET /documents?taxCodes=A,B&deMinimis=..&last3Years=..: the search without what the screen does not
 * show, each repeated text once.
 */
export interface SearchAnswerDto extends Omit<SearchResultDto, 'rows'> {
  rows: AidListRowDto[];
  measures: string[];
  beneficiaries: BeneficiaryDto[];
  /** only when asked for (details=true): the references of each row */
  details?: AidDetailColumnsDto;
}

/**
 * Where one searched code's rows come from. LIVE: the register's look-up, answered at `asOf`.
 * ARCHIVE: the synchronised archive as it was at `asOf` (null = never synchronised). In live mode a
 * code answered from the archive says why: the register paces its callers (PACED: the code is
 * queued and will be answered live later the same day) or did not answer (UNAVAILABLE).
 */
export interface CodeSourceDto {
  taxCode: string;
  source: 'LIVE' | 'ARCHIVE';
  asOf: number | null;
  liveFallback?: 'PACED' | 'UNAVAILABLE';
  /** LIVE: the aid fields the register's live answer does not give (shown empty, or as stated) */
  missingFields?: LiveMissingField[];
}

/**
 * What the register's live look-up never gives of an aid (FORMAT.md "Live look-up"): its rows leave
 * these empty, except the nominal amount, shown equal to the aid element (the only amount given).
 */
export const LIVE_MISSING_FIELDS = [
  'soggettoConcedente',
  'cup',
  'importoNominale',
  'desRegolamento',
  'desObiettivo',
  'settoreAttivita',
] as const;
export type LiveMissingField = (typeof LIVE_MISSING_FIELDS)[number];

/** GET/PUT /users/saved-searches */
export interface SavedSearchDto {
  id: string;
  taxCodes: string[];
  deMinimis: boolean;
  last3Years: boolean;
}

/** GET /variation-alerts, POST /variation-alerts {taxCodes} */
export interface VariationAlertDto {
  id: string;
  taxCodes: string[];
  /** an alert on a group watches its members as they are at each sync */
  group: { id: string; name: string } | null;
  createdAt: number;
  /** the latest sync that changed the aids of these codes (and mailed the owner) */
  lastNotification: { at: number; changes: number } | null;
  /** each watched code, in order, with its company's name as the archive's newest aid writes it */
  companies: AlertCompanyDto[];
}

/** A code an alert watches and the company it belongs to (null: the archive has no aid of it) */
export interface AlertCompanyDto {
  taxCode: string;
  name: string | null;
}

/** An alert as stored, before the names of its companies are looked up in the aid index. */
export type StoredVariationAlert = Omit<VariationAlertDto, 'companies'>;

/** GET /sync/documents-update and the files of a run */
export interface ArchiveFileDto {
  /** without the open-data prefix: 2024_02 or 2024_02_002 */
  name: string;
  /** when the portal last imported it (ms) or null */
  lastUpdate: number | null;
  /** Last-Modified at the register (ms) or null */
  rnaLastUpdate: number | null;
  status: RegisterFileStatus | null;
  /** 0..100 with 2 decimals while downloading */
  progress: number;
  records: number;
  error: string | null;
  /** records of its last import that the record check rejected (never indexed), 0 before the check */
  recordsRejected: number;
  /** the first 100 of them with their reasons */
  rejected: RegisterRecordRejection[];
}

/** A file of a sync run: as the archive lists it, with the aids of the run's import set aside. */
export interface SyncRunFileDto extends ArchiveFileDto {
  /**
   * Aids of the run's import of the file that the aid index refused on every try and set aside, and
   * has not applied since (`npm run replay-dead-letters`); 0 for a file the run did not import.
   */
  recordsSetAside: number;
}

export interface SyncRunDto {
  id: string;
  type: SyncScope;
  start: number;
  end: number | null;
  status: 'RUNNING' | 'SUCCESS' | 'ERROR';
  files: SyncRunFileDto[];
  /** files in SUCCESS (or skipped as unchanged) / all files of the run */
  done: number;
  total: number;
  records: number;
  /** records the run's imports rejected, over all its files */
  recordsRejected: number;
  /** aids of the run's imports set aside by the index and not applied since, over all its files */
  recordsSetAside: number;
  /** aids the run's imported files published, and how many of them the index has applied so far */
  published: number;
  indexed: number;
  /**
   * Once the run has ended: files imported, failed and skipped as unchanged (0 while it runs). A run
   * that imported and failed nothing left the archive as it was.
   */
  succeeded: number;
  failed: number;
  skipped: number;
}

/** GET /sync/status */
export interface SyncStatusDto {
  running: boolean;
  /** the run is over but the index is still applying its aids (published > indexed) */
  indexing: boolean;
  run: SyncRunDto | null;
}

/** GET /sync/results: history, newest first */
export interface SyncResultDto {
  id: string;
  type: SyncScope;
  start: number;
  end: number | null;
  status: 'RUNNING' | 'SUCCESS' | 'ERROR';
  succeeded: number;
  failed: number;
  skipped: number;
  records: number;
  /** records the run's imports rejected (never indexed) */
  recordsRejected: number;
}

/** GET /sync/archive-stats */
export interface ArchiveStatsDto {
  totalDocuments: number;
  lastSync: number | null;
  /** events and register records set aside after failing again and again (see the service log) */
  deadLetters: number;
  /** register records lost before the index saw them (the message log no longer had them) */
  missingAids: number;
}

/** GET /documents/data-source-status (ADMIN) */
export interface DataSourceStatusDto {
  useLiveData: boolean;
  lastUpdate: number | null;
}

/** GET /config.json (served by the server, read by the app at start) */
export interface RuntimeConfigDto {
  version: string;
  apiBaseUrl: string;
  /** forces the banner's last-update value when set */
  forcedLastUpdate: number | null;
  /** the operator's VAT number and contact address shown in the footer (omitted when not configured) */
  vatNumber?: string | null;
  contactEmail?: string | null;
}

/** GET /api/health */
export interface HealthDto {
  status: 'ok' | 'degraded';
  version: string;
  stores: Record<string, 'ok' | 'error'>;
  /** events and register records set aside after failing again and again */
  deadLetters: number;
  /**
   * complete: no aid was lost before the index saw it, and the latest sync's aids are all indexed;
   * missingAids: lost for good (re-import the files); pendingAids: published, not indexed yet
   */
  indexing: { complete: boolean; missingAids: number; pendingAids: number };
}

export type AuditEntryKind = 'ALLOWANCE' | 'SEARCH' | 'DOWNLOAD' | 'REFUSAL' | 'REFUND';

/** One line of GET /audit/{clients|users}/{id}/history */
export interface AuditEntryDto {
  /** position in the quota stream */
  version: number;
  kind: AuditEntryKind;
  /** ms */
  at: number;
  by: Actor;
  taxCodes: string[];
  deMinimis: boolean | null;
  last3Years: boolean | null;
  dataSource: 'ARCHIVE' | 'LIVE' | null;
  resultCount: number | null;
  cost: number;
  /** 'sheet' | 'pdf' | 'declaration' for downloads, 'A002' | 'U004' for refusals, the reason of a refund */
  detail: string | null;
  /**
   * What an ALLOWANCE entry set (null for every other kind): kept as data, so that each screen or
   * file writes the end date in its own format and time zone (Rome) rather than as ISO text.
   */
  allowance: { remainingSearches: number; availableYearlySearches: number; endDate: number } | null;
  /** remaining searches right after this entry */
  remainingSearches: number;
}

/** GET /audit/{clients|users}/{id}/history (ADMIN): a replay of a quota or audit stream */
export interface AuditHistoryDto {
  clientId: string;
  /** ms; null = now (every event) */
  asOf: number | null;
  /** the page asked for (HistoryPage) */
  entries: AuditEntryDto[];
  /** entries up to asOf, in every page */
  totalEntries: number;
  /** where the next page starts (`from`), null when this page is the last */
  nextFrom: number | null;
  remainingSearches: number;
  availableYearlySearches: number;
  endDate: number | null;
}

// ---- de minimis of a single undertaking (impresa unica) at a planned grant date ----

/**
 * The de minimis regimes, each with its ceiling (domain/src/de-minimis-regimes.ts says which
 * regulation falls under which, and the sources).
 */
export type DeMinimisRegime = 'GENERAL' | 'AGRICULTURE' | 'FISHERIES' | 'SIEG';
export const DE_MINIMIS_REGIMES: readonly DeMinimisRegime[] = ['GENERAL', 'AGRICULTURE', 'FISHERIES', 'SIEG'];

/** One limit a planned aid must respect: the regimes' aids in the window plus the new aid ≤ ceiling. */
export interface HeadroomLimitDto {
  /** euro, two decimals ('300000.00') */
  ceiling: string;
  regimes: DeMinimisRegime[];
  used: string;
  /** ceiling − used, never below 0 */
  remaining: string;
}

/**
 * GET /de-minimis/headroom?taxCodes=A,B|group=<id>&date=YYYY-MM-DD&regime=…: how much de minimis aid
 * of `regime` the undertaking (the codes together) may still receive if granted on `date`.
 * Amounts are euro strings with two decimals, like `elementoDiAiuto`.
 */
export interface HeadroomDto {
  taxCodes: string[];
  /** the planned grant date */
  date: string;
  regime: DeMinimisRegime;
  /** the first day counted: the day after `date` − 3 years */
  windowStart: string;
  usedByRegime: Record<DeMinimisRegime, string>;
  limits: HeadroomLimitDto[];
  /** the smallest remaining of the limits, never below 0 */
  headroom: string;
  /** after `date`: the days on which aids counted now leave the window, and how much each frees */
  releases: { date: string; amount: string }[];
  /** each company's own share of what is counted */
  perCompany: { taxCode: string; name: string | null; usedByRegime: Record<DeMinimisRegime, string> }[];
  /** de minimis aids counted as GENERAL because their regulation is not one the rules name */
  unknownRegulationAids: number;
  /** the group asked for, when the request named one */
  group: { id: string; name: string } | null;
}

/** Limits of groups (impresa unica): per user, per group, and their texts' lengths. */
export const UNDERTAKING_GROUP_LIMITS = { groups: 50, members: 100, name: 100, note: 200 } as const;

/** A member of a group: a tax code and an optional note ("controllata al 60%"). */
export interface UndertakingMemberDto {
  taxCode: string;
  note: string;
}

/** GET/POST /groups, PUT/DELETE /groups/:id: a named group of companies counted as one undertaking. */
export interface UndertakingGroupDto {
  id: string;
  name: string;
  members: UndertakingMemberDto[];
  createdAt: number;
  updatedAt: number;
}

/** The body of POST /groups and PUT /groups/:id. */
export interface UndertakingGroupInput {
  name: string;
  members: { taxCode: string; note?: string }[];
}

/**
 * GET /reports/verify/:code (public): a report the portal issued, as far as a third party may learn
 * of it: when, which kind, for which tax codes, under which organisation's brand. No amounts.
 */
export interface ReportVerificationDto {
  /** printed form, XXXX-XXXX-XXXX-C */
  code: string;
  issuedAt: number;
  kind: ReportKind;
  taxCodes: string[];
  /** the organisation whose brand the report carries ('' when none) */
  organisation: string;
}
