/** Answers of the portal's /bulk-searches calls, for the component tests of the bulk search. */
import type { BulkJobDto, BulkPreviewDto } from '@rna/domain';

const DAY_MS = 86_400_000;

/** A preview of a pasted list of two codes, one of them with a wrong check digit. */
export function bulkPreview(overrides: Partial<BulkPreviewDto> = {}): BulkPreviewDto {
  return {
    sourceName: '',
    column: null,
    columns: [],
    taxCodes: ['01234567897', '01234567890'],
    warnings: [{ taxCode: '01234567890', reason: 'CHECK_DIGIT' }],
    ignored: [],
    ignoredCount: 0,
    duplicates: 0,
    groups: [],
    newToday: 2,
    cost: 2,
    remainingSearches: 7,
    affordable: true,
    ...overrides,
  };
}

/** A job of the user's list; requested a minute ago (the test clock is shifted: never a fixed date). */
export function bulkJob(overrides: Partial<BulkJobDto> = {}): BulkJobDto {
  return {
    jobId: 'job-1',
    sourceName: 'clienti.xlsx',
    status: 'QUEUED',
    totalCodes: 300,
    doneCodes: 0,
    cost: 12,
    requestedAt: new Date(Date.now() - 60_000).toISOString(),
    completedAt: null,
    expiresAt: null,
    companiesWithAids: null,
    aids: null,
    overCeiling: null,
    failureCode: null,
    downloaded: false,
    ...overrides,
  };
}

/** The same job once finished: 300 companies, 4 over the ceiling, downloadable for 30 days. */
export function completedBulkJob(overrides: Partial<BulkJobDto> = {}): BulkJobDto {
  const completedAt = Date.now() - 30_000;
  return bulkJob({
    status: 'COMPLETED',
    doneCodes: 300,
    completedAt: new Date(completedAt).toISOString(),
    expiresAt: new Date(completedAt + 30 * DAY_MS).toISOString(),
    companiesWithAids: 120,
    aids: 1_234,
    overCeiling: 4,
    ...overrides,
  });
}
