/**
 * Event types of the streams in ARCHITECTURE.md. Payloads are plain JSON.
 * Secrets (password hashes, tokens, reset and invitation codes) are never part of an event.
 *
 * Every type an event carries is defined here or in a leaf module: the modules of the rules (quotas,
 * bulk searches, the record check…) import this one, so it imports none of them
 * (tools/src/architecture/import-cycles.int.test.ts).
 */
import type { SyncScope } from './archive-files';
import type { RegisterRecordRejection } from './register-record-rejections';

/** Any event: a type and a JSON payload. Each stream category narrows it to a union below. */
export interface EventShape {
  type: string;
  data: unknown;
}

declare const eventsOfStream: unique symbol;
/**
 * A stream's name, carrying the union of events its category holds (`streams.client(id)` is a
 * `StreamName<ClientEvent>`): the event store gives back those events, `data` narrowed by `type`, and
 * accepts only those. A plain string is a stream of any event.
 */
export type StreamName<E extends EventShape = EventShape> = string & { readonly [eventsOfStream]?: E };

export type Role = 'ADMIN' | 'CLIENT';
export type DataSource = 'ARCHIVE' | 'LIVE';
/** What a download was: a search's report (Excel, PDF) or its de minimis self-declaration (PDF). */
export type ReportKind = 'sheet' | 'pdf' | 'declaration';

/** Who did it: the acting user's id and email (ADMIN, CLIENT or the system). */
export interface Actor {
  userId: string;
  email: string;
  role: Role | 'SYSTEM';
}

// ---- client-<id> ----
export type ClientEvent =
  | {
      type: 'ClientInvited';
      data: { clientId: string; email: string; fixedTaxCode: string | null; invitedAt: string; by: Actor };
    }
  | { type: 'ClientActivated'; data: { clientId: string; activatedAt: string } }
  | { type: 'ClientAccessed'; data: { clientId: string; accessedAt: string } }
  | {
      type: 'ClientLimitsSet';
      data: {
        clientId: string;
        availableYearlySearches: number;
        remainingSearches: number;
        endDate: number;
        by: Actor;
      };
    }
  | { type: 'ClientFixedTaxCodeSet'; data: { clientId: string; fixedTaxCode: string; by: Actor } }
  | { type: 'ClientFixedTaxCodeRemoved'; data: { clientId: string; by: Actor } }
  | { type: 'ClientPdfEnabledSet'; data: { clientId: string; enabled: boolean; by: Actor } }
  | { type: 'ClientVariationAlertsEnabledSet'; data: { clientId: string; enabled: boolean; by: Actor } }
  | { type: 'ClientLogoAssigned'; data: { clientId: string; logoId: number; by: Actor } }
  | { type: 'ClientAccessRenewed'; data: { clientId: string; endDate: number; by: Actor } }
  | { type: 'ClientRemoved'; data: { clientId: string; by: Actor } };

// ---- quota-<clientId> ----
export interface SearchRequest {
  taxCodes: string[];
  deMinimis: boolean;
  last3Years: boolean;
}
export type QuotaEvent =
  | {
      type: 'SearchAllowanceGranted';
      data: {
        clientId: string;
        availableYearlySearches: number;
        remainingSearches: number;
        endDate: number;
        at: string;
        by: Actor;
      };
    }
  | {
      type: 'SearchPerformed';
      data: SearchRequest & {
        clientId: string;
        at: string;
        by: Actor;
        dataSource: DataSource;
        resultCount: number;
        cost: number;
        /** the Ricerca massiva job this search was the charge of */
        bulkJobId?: string;
      };
    }
  | {
      type: 'ReportDownloaded';
      data: SearchRequest & {
        clientId: string;
        at: string;
        by: Actor;
        kind: ReportKind;
        /** the verification code printed on the report's pages (report-codes.ts); absent before codes */
        reportCode?: string;
        /** the organisation whose brand the report carries (its logo's name), shown by the verification */
        organisation?: string;
      };
    }
  | {
      type: 'SearchRefused';
      data: SearchRequest & { clientId: string; at: string; by: Actor; code: 'A002' | 'U004' };
    }
  | {
      /**
       * A charge given back: a Ricerca massiva whose charge landed after the job had been settled as
       * never charged (B008), its request having stalled past the time a request may take.
       */
      type: 'SearchRefunded';
      data: { clientId: string; at: string; by: Actor; cost: number; bulkJobId: string; reason: string };
    };

// ---- user-<id> ----
export type UserEvent =
  | { type: 'UserRegistered'; data: { userId: string; email: string; role: Role; at: string } }
  | { type: 'SearchSaved'; data: SearchRequest & { userId: string; searchId: string; at: string } }
  | { type: 'SavedSearchCleared'; data: { userId: string; at: string } }
  | {
      type: 'VariationAlertAdded';
      data: {
        userId: string;
        alertId: string;
        taxCodes: string[];
        at: string;
        /** an alert on a group (impresa unica): it watches the group's members as they are at each sync */
        group?: { id: string; name: string };
      };
    }
  | { type: 'VariationAlertRemoved'; data: { userId: string; alertId: string; at: string } }
  | {
      /** a group of companies counted as one undertaking (impresa unica), created or replaced */
      type: 'UndertakingGroupSaved';
      data: {
        userId: string;
        groupId: string;
        name: string;
        members: { taxCode: string; note: string }[];
        at: string;
      };
    }
  | { type: 'UndertakingGroupDeleted'; data: { userId: string; groupId: string; at: string } }
  | {
      type: 'VariationAlertTriggered';
      data: {
        userId: string;
        alertId: string;
        taxCodes: string[];
        syncRunId: string;
        changes: number;
        at: string;
      };
    }
  | {
      type: 'PasswordChanged';
      data: { userId: string; at: string; reason: 'change' | 'reset' | 'activation' };
    };

// ---- logo-<id> ----
export interface PdfConfig {
  primaryColor: string;
  footer1: string;
  footer2: string;
}
export type LogoEvent =
  | {
      type: 'LogoUploaded';
      data: { logoId: number; name: string; fileName: string; contentType: string; at: string; by: Actor };
    }
  | {
      type: 'LogoPdfConfigSet';
      data: { logoId: number; pdfConfig: PdfConfig; subRenewUrl: string; at: string; by: Actor };
    }
  | { type: 'LogoDeleted'; data: { logoId: number; at: string; by: Actor } };

// ---- sync-<runId> and sync-control ----
export type RegisterFileStatus = 'PENDING' | 'DOWNLOADING' | 'PARSING' | 'SUCCESS' | 'ERROR';
export type SyncEvent =
  | {
      type: 'SyncRequested';
      data: { runId: string; scope: SyncScope; onlyDocuments: string[]; at: string; by: Actor };
    }
  | { type: 'SyncStarted'; data: { runId: string; files: string[]; at: string } }
  | { type: 'RegisterFileQueued'; data: { runId: string; name: string; at: string } }
  | { type: 'RegisterFileSkipped'; data: { runId: string; name: string; reason: 'UNCHANGED'; at: string } }
  | {
      type: 'RegisterFileDownloading';
      data: { runId: string; name: string; totalBytes: number | null; at: string };
    }
  | { type: 'RegisterFileParsing'; data: { runId: string; name: string; at: string } }
  | {
      type: 'RegisterFileSucceeded';
      data: {
        runId: string;
        name: string;
        importId: string;
        /** records published (the ones the record check kept) */
        records: number;
        withdrawn: number;
        controlBytesRemoved: number;
        etag: string | null;
        lastModified: string | null;
        at: string;
        /** records the check rejected, never published; absent on events older than the check = 0 */
        recordsRejected?: number;
        /** the first MAX_LISTED_REJECTIONS of them, with their reasons */
        rejected?: RegisterRecordRejection[];
        /** where the file is kept as imported (absent on imports older than the archive) */
        archive?: ArchivedRegisterFile;
      };
    }
  | { type: 'RegisterFileFailed'; data: { runId: string; name: string; reason: string; at: string } }
  /** A file imported before is no longer in the register's complete listing: its aids are withdrawn. */
  | { type: 'RegisterFileWithdrawn'; data: { runId: string; name: string; at: string } }
  | {
      type: 'SyncCompleted';
      data: {
        runId: string;
        at: string;
        succeeded: number;
        failed: number;
        skipped: number;
        records: number;
        /** records the run's imports rejected; absent on runs before the record check = 0 */
        recordsRejected?: number;
      };
    }
  | { type: 'SyncFailed'; data: { runId: string; at: string; reason: string } };

// ---- bulk-<jobId> ----
/** A code of the list whose check digit (or letter) is wrong: kept, searched, and reported. */
export interface BulkCodeWarning {
  taxCode: string;
  reason: 'CHECK_DIGIT';
}

/** A code of the list and the group (impresa unica) it belongs to. */
export interface BulkCodeGroup {
  taxCode: string;
  group: string;
}

export type BulkSearchEvent =
  | {
      type: 'BulkSearchRequested';
      data: {
        jobId: string;
        userId: string;
        /** the metered client, null for ADMIN */
        clientId: string | null;
        by: Actor;
        at: string;
        sourceName: string;
        taxCodes: string[];
        warnings: BulkCodeWarning[];
        /** each grouped code's group (impresa unica); absent when the list named none */
        groups?: BulkCodeGroup[];
        dataSource: DataSource;
        /** the searches charged (with `awaitingCharge`: 0, BulkSearchCharged says) */
        cost: number;
        /**
         * A client's job, requested before its charge: it runs only once BulkSearchCharged says what
         * was charged (a job is never charged without existing). Absent for ADMIN and older jobs.
         */
        awaitingCharge?: boolean;
      };
    }
  | {
      type: 'BulkSearchCharged';
      /** `cost` as the client's quota stream recorded it (its SearchPerformed names the job) */
      data: { jobId: string; at: string; cost: number };
    }
  | { type: 'BulkSearchProgressed'; data: { jobId: string; doneCodes: number; at: string } }
  | {
      type: 'BulkSearchCompleted';
      data: {
        jobId: string;
        at: string;
        companiesWithAids: number;
        aids: number;
        overCeiling: number;
        expiresAt: string;
        /** bytes of the workbook and the PDF kept for the job (absent on older jobs) */
        resultBytes?: number;
      };
    }
  | { type: 'BulkSearchFailed'; data: { jobId: string; at: string; code: string; reason: string } }
  | { type: 'BulkResultDownloaded'; data: { jobId: string; at: string; by: Actor; kind: 'sheet' | 'pdf' } };

// ---- settings ----
export type SettingsEvent = {
  type: 'DataSourceSwitched';
  data: { useLiveData: boolean; at: string; by: Actor };
};

export type DomainEvent =
  ClientEvent | QuotaEvent | UserEvent | LogoEvent | SyncEvent | SettingsEvent | BulkSearchEvent;
export type DomainEventType = DomainEvent['type'];
/** The domain events of the given types, e.g. `EventOfType<'UserRegistered' | 'ClientRemoved'>`. */
export type EventOfType<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** The quota decider's state (quotas.ts folds it), as a QuotaSnapshotTaken carries it. */
export interface QuotaState {
  availableYearlySearches: number;
  remainingSearches: number;
  /** epoch ms; null until an allowance is granted (no access yet) */
  endDate: number | null;
  /**
   * The tax codes looked up on the most recent calendar day (Rome) seen in the stream, normalised.
   * Only that day matters for "a code already looked up today is free", so older days are dropped
   * to keep the state small however long the stream grows.
   */
  lookedUpToday: { day: string; codes: string[] } | null;
}

/** A quota stream folded up to `version` (snapshot-quota-<clientId>). */
export type QuotaSnapshotEvent = {
  type: 'QuotaSnapshotTaken';
  data: { version: number; state: QuotaState };
};

/** A user stream's live variation alerts folded up to `version` (snapshot-user-<userId>). */
export type UserSnapshotEvent = {
  type: 'UserSnapshotTaken';
  data: { version: number; state: UserDecisionState };
};

/**
 * What a decision on a user's stream needs of it: the ids of the alerts not removed, and of the
 * groups not deleted (absent in snapshots taken before groups existed: none then).
 */
export interface UserDecisionState {
  alertIds: string[];
  groupIds?: string[];
}

/** The union of events each stream category holds. */
export interface EventsByCategory {
  client: ClientEvent;
  quota: QuotaEvent;
  quotaSnapshot: QuotaSnapshotEvent;
  userSnapshot: UserSnapshotEvent;
  user: UserEvent;
  logo: LogoEvent;
  sync: SyncEvent;
  settings: SettingsEvent;
  bulk: BulkSearchEvent;
}

const stream = <E extends EventShape>(name: string) => name as StreamName<E>;

/** Stream names, in one place, each typed with the events it holds. */
export const streams = {
  client: (id: string) => stream<ClientEvent>(`client-${id}`),
  quota: (clientId: string) => stream<QuotaEvent>(`quota-${clientId}`),
  /** Folded quota states (QuotaSnapshotTaken), so that a decision never replays a whole long stream. */
  quotaSnapshots: (clientId: string) => stream<QuotaSnapshotEvent>(`snapshot-quota-${clientId}`),
  /** The searches and downloads of a user who is not metered (ADMIN): the same events, cost 0. */
  audit: (userId: string) => stream<QuotaEvent>(`audit-${userId}`),
  user: (id: string) => stream<UserEvent>(`user-${id}`),
  /** Folded alert states of a user stream (UserSnapshotTaken): an alert decision never replays it all. */
  userSnapshots: (id: string) => stream<UserSnapshotEvent>(`snapshot-user-${id}`),
  logo: (id: number) => stream<LogoEvent>(`logo-${id}`),
  sync: (runId: string) => stream<SyncEvent>(`sync-${runId}`),
  syncControl: stream<SyncEvent>('sync-control'),
  settings: stream<SettingsEvent>('settings'),
  /** One bulk search job (Ricerca massiva): requested, progressed, completed or failed, downloads. */
  bulk: (jobId: string) => stream<BulkSearchEvent>(`bulk-${jobId}`),
} as const;

/** Every event type of a category, so that a subscriber of all events can tell them apart at run time. */
const EVENT_TYPES: { [C in keyof EventsByCategory]: Record<EventsByCategory[C]['type'], true> } = {
  client: {
    ClientInvited: true,
    ClientActivated: true,
    ClientAccessed: true,
    ClientLimitsSet: true,
    ClientFixedTaxCodeSet: true,
    ClientFixedTaxCodeRemoved: true,
    ClientPdfEnabledSet: true,
    ClientVariationAlertsEnabledSet: true,
    ClientLogoAssigned: true,
    ClientAccessRenewed: true,
    ClientRemoved: true,
  },
  quota: {
    SearchAllowanceGranted: true,
    SearchPerformed: true,
    ReportDownloaded: true,
    SearchRefused: true,
    SearchRefunded: true,
  },
  quotaSnapshot: { QuotaSnapshotTaken: true },
  userSnapshot: { UserSnapshotTaken: true },
  user: {
    UserRegistered: true,
    SearchSaved: true,
    SavedSearchCleared: true,
    VariationAlertAdded: true,
    VariationAlertRemoved: true,
    UndertakingGroupSaved: true,
    UndertakingGroupDeleted: true,
    VariationAlertTriggered: true,
    PasswordChanged: true,
  },
  logo: { LogoUploaded: true, LogoPdfConfigSet: true, LogoDeleted: true },
  sync: {
    SyncRequested: true,
    SyncStarted: true,
    RegisterFileQueued: true,
    RegisterFileSkipped: true,
    RegisterFileDownloading: true,
    RegisterFileParsing: true,
    RegisterFileSucceeded: true,
    RegisterFileFailed: true,
    RegisterFileWithdrawn: true,
    SyncCompleted: true,
    SyncFailed: true,
  },
  settings: { DataSourceSwitched: true },
  bulk: {
    BulkSearchRequested: true,
    BulkSearchCharged: true,
    BulkSearchProgressed: true,
    BulkSearchCompleted: true,
    BulkSearchFailed: true,
    BulkResultDownloaded: true,
  },
};

/**
 * Whether an event (from a subscription to all streams) is one of the category's: then its `data` is
 * typed by its `type`, without a cast.
 */
export function isEventOf<C extends keyof EventsByCategory, T extends EventShape>(
  category: C,
  event: T,
): event is T & EventsByCategory[C] {
  return Object.hasOwn(EVENT_TYPES[category], event.type);
}

// ---- topic "aids" (key = beneficiary tax code) ----
/** One aid component as imported from a register file; amounts in euro cents. */
export interface AidRecord {
  idComponenteAiuto: string;
  cor: string;
  car: string;
  titoloMisura: string;
  desTipoMisura: string;
  soggettoConcedente: string;
  titoloProgetto: string;
  dataConcessione: string; // YYYY-MM-DD
  cup: string;
  denominazioneBeneficiario: string;
  codiceFiscaleBeneficiario: string;
  desTipoBeneficiario: string;
  regioneBeneficiario: string;
  codProcedimento: string;
  desProcedimento: string;
  codRegolamento: string;
  desRegolamento: string;
  codObiettivo: string;
  desObiettivo: string;
  settoreAttivita: string;
  elementoDiAiutoCents: number;
  importoNominaleCents: number;
  sourceFile: string; // display name, e.g. 2024_02_002
  importId: string; // which import of the source file wrote it
}

/**
 * A register file kept as it was imported (its zip, or its XML gzipped), in the blob store under a
 * name made of the SHA-256 of what is stored: the source the aid index is rebuilt from.
 */
export interface ArchivedRegisterFile {
  blob: string;
  sha256: string;
  bytes: number;
  format: 'zip' | 'xml.gz';
}

export const AIDS_TOPIC = 'aids';
/**
 * Messages of the `aids` topic. A file import publishes its AidRecorded batches and then one
 * SourceFileImported marker: the projector then withdraws the file's aids that this import did
 * not record again (they disappeared from the file). AidWithdrawn withdraws single aids.
 */
export type AidMessage =
  | { type: 'AidRecorded'; aid: AidRecord }
  | { type: 'AidWithdrawn'; idComponenteAiuto: string; codiceFiscaleBeneficiario: string; sourceFile: string }
  | { type: 'SourceFileImported'; sourceFile: string; importId: string; runId: string; records: number }
  /** The register no longer lists the file: every aid it brought is withdrawn. */
  | {
      type: 'SourceFileWithdrawn';
      sourceFile: string;
      runId: string;
      /** ordered like an import (import-order.ts): withdraws what imports begun before it wrote */
      importId?: string;
    };

/**
 * JSON.stringify({ type: 'AidRecorded', aid }) begins with this, followed by the aid's own JSON and
 * a closing brace.
 */
export const AID_RECORDED_PREFIX = '{"type":"AidRecorded","aid":';

/**
 * The AidRecorded message for an aid already encoded as JSON (by the parser's thread): the same
 * text as JSON.stringify({ type: 'AidRecorded', aid }), without decoding and encoding it again.
 */
export function encodeAidRecorded(aidJson: string): string {
  return `${AID_RECORDED_PREFIX}${aidJson}}`;
}

/** The aid's JSON inside an AidRecorded message's text, or null when the text is any other message. */
export function aidJsonOfAidRecorded(messageJson: string): string | null {
  return messageJson.startsWith(AID_RECORDED_PREFIX) && messageJson.endsWith('}')
    ? messageJson.slice(AID_RECORDED_PREFIX.length, -1)
    : null;
}

/** The aid of an AidRecorded message's text; any other text is refused. */
export function aidOfAidRecordedText(text: string): AidRecord {
  const message = JSON.parse(text) as { type?: unknown; aid?: AidRecord } | null;
  if (message?.type !== 'AidRecorded' || !message.aid) throw new Error('not an AidRecorded message');
  return message.aid;
}

/**
 * The register file (and import) an aid message came from, as far as its value says: an aid's own
 * fields for AidRecorded, the message's for the others; nothing for a value that is not an object.
 */
export function originOfAidMessage(value: unknown): { sourceFile?: string; importId?: string } {
  if (typeof value !== 'object' || value === null) return {};
  const message = value as { type?: unknown; aid?: unknown; sourceFile?: unknown; importId?: unknown };
  const holder =
    message.type === 'AidRecorded' && typeof message.aid === 'object' && message.aid !== null
      ? (message.aid as { sourceFile?: unknown; importId?: unknown })
      : message;
  return {
    ...(typeof holder.sourceFile === 'string' ? { sourceFile: holder.sourceFile } : {}),
    ...(typeof holder.importId === 'string' ? { importId: holder.importId } : {}),
  };
}
