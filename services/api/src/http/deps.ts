/**
 * What the API needs from the composition root. Feature helpers add optional members here
 * (pdf renderer, live register, sync worker, …) rather than reaching for globals.
 */
import type { Logger } from 'pino';
import type { AidIndex, DocumentStore, EventStore, MessageLog } from '@rna/infra';
import type { BlobStore } from '@rna/infra/blobs';
import type { Mailer } from '@rna/infra/mail';
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

export interface AuthLimits {
  /** Sign-in attempts per IP address within the window. */
  loginPerIp: number;
  /** Failed sign-ins per account within the window. */
  loginFailuresPerAccount: number;
  /** Reset mails per account within the window (more are silently dropped). */
  resetMailsPerAccount: number;
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
  /** Starts a sync run (the sync worker's command); absent → POST /sync answers G001. */
  requestSync?: StartSync;
  /** Search feature: renders report.pdf (GET /documents/pdf answers G001 without it). */
  pdfRenderer?: PdfRenderer;
  /** Search feature: the register's live look-up, used when the data source is LIVE (G007 without it). */
  liveRegister?: LiveRegister;
  /** Search feature: when the archive was last synchronised (ms), null = never. */
  archiveLastUpdate?: () => Promise<number | null>;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginPerIp: 30,
  loginFailuresPerAccount: 5,
  resetMailsPerAccount: 3,
  windowMs: 15 * 60_000,
};

export async function projectionsCaughtUp(deps: ApiDeps): Promise<void> {
  if (deps.awaitProjections) await deps.awaitProjections();
}
