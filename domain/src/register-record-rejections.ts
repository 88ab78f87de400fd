/**
 * The reasons the record check (register-records.ts) sets a register record aside, and a rejection as
 * RegisterFileSucceeded lists it. A leaf: events.ts takes the type from here, and register-records.ts,
 * which imports events.ts, takes it too, so no module imports itself back.
 */

/** Why a record was rejected: a short, closed list (the archive screen has a label for each). */
export const REGISTER_RECORD_REJECTION_REASONS = [
  'DATA_NON_VALIDA',
  'DATA_FUORI_INTERVALLO',
  'IMPORTO_NEGATIVO',
  'IMPORTO_NON_VALIDO',
  'ID_NON_VALIDO',
  'CODICE_FISCALE_NON_VALIDO',
] as const;
export type RegisterRecordRejectionReason = (typeof REGISTER_RECORD_REJECTION_REASONS)[number];

/** One record set aside, as the file's status lists it. */
export interface RegisterRecordRejection {
  /** as the register wrote it (shortened when absurdly long) */
  idComponenteAiuto: string;
  reason: RegisterRecordRejectionReason;
  /** Italian, for the administrator */
  message: string;
}
