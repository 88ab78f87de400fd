/** Live register port: the register's own "Trasparenza" look-up, used when the portal is in live mode. */
import type { AidRecord } from '@rna/domain';

export interface LiveRegister {
  /** The aids of one beneficiary tax code, mapped like archived ones (sourceFile 'LIVE'). */
  lookup(taxCode: string): Promise<AidRecord[]>;
}

/** The register did not answer usefully in time (down, slow, rate-limited, malformed answer). */
export class LiveRegisterUnavailableError extends Error {
  readonly code = 'LIVE_REGISTER_UNAVAILABLE' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LiveRegisterUnavailableError';
  }
}
