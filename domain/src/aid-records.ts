/**
 * What makes an aid record storable, one rule for every index adapter: the fields the index keys,
 * sorts and filters by must be there and well formed. The problems are named, so that a record set
 * aside (dead letter) says why.
 */
import type { AidRecord } from './events';

export function aidRecordProblems(record: AidRecord): string[] {
  const problems: string[] = [];
  if (typeof record.idComponenteAiuto !== 'string' || !/^\d+$/.test(record.idComponenteAiuto.trim()))
    problems.push('idComponenteAiuto must be an integer');
  if (typeof record.codiceFiscaleBeneficiario !== 'string')
    problems.push('codiceFiscaleBeneficiario is missing');
  if (typeof record.dataConcessione !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(record.dataConcessione))
    problems.push('dataConcessione must be YYYY-MM-DD');
  for (const field of ['elementoDiAiutoCents', 'importoNominaleCents'] as const)
    if (!Number.isSafeInteger(record[field])) problems.push(`${field} must be integer cents`);
  if (typeof record.sourceFile !== 'string') problems.push('sourceFile is missing');
  if (typeof record.importId !== 'string') problems.push('importId is missing');
  return problems;
}

/** Throws a TypeError naming every problem of a record that cannot be stored. */
export function assertStorableAid(record: AidRecord): void {
  const problems = aidRecordProblems(record);
  if (problems.length > 0)
    throw new TypeError(`Invalid aid record ${String(record.idComponenteAiuto)}: ${problems.join(', ')}`);
}
