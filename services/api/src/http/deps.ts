/**
 * What the API needs from the composition root. Feature helpers add optional members here
 * (pdf renderer, live register, sync worker, …) rather than reaching for globals.
 */
import type { Logger } from 'pino';
import type { AidIndex, DocumentStore, EventStore, MessageLog } from '@rna/infra';
import type { BlobStore } from '@rna/infra/blobs';
import type { Mailer } from '@rna/infra/mail';
import type { AidLookups } from '../documents/aid-lookups';
import type { StartSync } from '../sync/handlers';
import type { PdfRenderer } from '@rna/infra/pdf';
import type { LiveRegister } from '@rna/infra/register-live';

export interface ApiConfig {
  /** Where users reach the portal; mail links start with it. */
  publicUrl: string;
  jwtSecret: string;
  version: string;
  dataDir: string;
}

/** Attempt limits per window (auth/attempts: shared by every API process, counted before the check). */
export interface AuthLimits {
  /** Failed sign-ins of one account from one client address (an IPv6 /64): past it, 429. */
  loginFailuresPerAccountAddress: number;
  /**
   * Failed sign-ins of one account from all addresses. Past it, only an address that has not failed
   * on the account may still try: a burst from one place never locks the owner out elsewhere.
   */
  loginFailuresPerAccount: number;
  /** Failed sign-ins from one address over all accounts (credential stuffing). */
  loginFailuresPerAddress: number;
  /** Reset mails per account (more are silently dropped: the answer never tells accounts apart). */
  resetMailsPerAccount: number;
  /** Reset requests per address: past it, 429. */
  resetRequestsPerAddress: number;
  windowMs: number;
}

export interface ApiDeps {
  eventStore: EventStore;
  documents: DocumentStore;
  aidIndex: AidIndex;
  messageLog: MessageLog;
  blobs: BlobStore;
  mailer: Mailer;
  config: ApiConfig;
  clock: () => Date;
  logger: Logger;
  /** Resolves when the projections have applied everything appended so far (read-your-writes). */
  awaitProjections?: () => Promise<void>;
  limits?: Partial<AuthLimits>;
  /** Searches and report downloads per user and minute (default 60; http/paid-work-limit). */
  paidRequestsPerMinute?: number;
  /** Writes per user and minute (default DEFAULT_WRITE_REQUESTS_PER_MINUTE). */
  writeRequestsPerMinute?: number;
  /**
   * Several API processes share one user's budgets of paid requests and writes (counted in the
   * document store) instead of each granting them whole; one process counts in memory.
   */
  sharedRequestBudgets?: boolean;
  /** Starts a sync run (the sync worker's command); absent → POST /sync answers G001. */
  requestSync?: StartSync;
  /** Search feature: renders report.pdf (GET /documents/pdf answers G001 without it). */
  pdfRenderer?: PdfRenderer;
  /** Search feature: the register's live look-up, used when the data source is LIVE (G007 without it). */
  liveRegister?: LiveRegister;
  /** Search feature: how long a live search waits for the register before using the archive (ms). */
  liveBudgetMs?: number;
  /** Search feature: when the archive was last synchronised (ms), null = never. */
  archiveLastUpdate?: () => Promise<number | null>;
  /** Search feature: the archive's recent look-ups, so a search's Excel and PDF reuse its aids. */
  aidLookups?: AidLookups;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginFailuresPerAccountAddress: 5,
  loginFailuresPerAccount: 20,
  loginFailuresPerAddress: 30,
  resetMailsPerAccount: 3,
  resetRequestsPerAddress: 10,
  windowMs: 15 * 60_000,
};

export async function projectionsCaughtUp(deps: ApiDeps): Promise<void> {
  if (deps.awaitProjections) await deps.awaitProjections();
}
