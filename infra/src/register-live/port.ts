/** Live register port: the register's own "Trasparenza" look-up, used when the portal is in live mode. */
import type { AidRecord } from '@rna/domain';

/** What the register said of one code: its aids (sourceFile 'LIVE') and when it said so. */
export interface LiveAnswer {
  kind: 'ANSWERED';
  records: AidRecord[];
  /** When the register answered (ms): a cached answer keeps its time. */
  answeredAt: number;
}

/**
 * The register asks callers to pause between look-ups: this code could not be asked before the
 * deadline. It stays queued and is asked at the register's pace; its answer is kept for the day,
 * so the same search later gets it live.
 */
export interface LivePaced {
  kind: 'PACED';
}

export interface LiveRegister {
  /**
   * The aids of one beneficiary tax code if the register can answer before `deadline` (ms since
   * the epoch), else PACED. Throws LiveRegisterUnavailableError when the register really failed.
   */
  lookup(taxCode: string, deadline: number): Promise<LiveAnswer | LivePaced>;
}

/** The register did not answer usefully (down, slow, malformed answer). */
export class LiveRegisterUnavailableError extends Error {
  readonly code = 'LIVE_REGISTER_UNAVAILABLE' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LiveRegisterUnavailableError';
  }
}
