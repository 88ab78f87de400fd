import { bulkJob, completedBulkJob } from '../../test/bulk-searches';
import { isDownloadable, progressPercent, readyJobs, resultFileName } from './bulk-job-rules';

describe('a bulk job’s downloads', () => {
  it('are named after the list, in a form every file system accepts', () => {
    expect(resultFileName('clienti.xlsx', 'xlsx')).toBe('ricerca-massiva-clienti.xlsx');
    expect(resultFileName('Clienti Studio Però 2026.csv', 'pdf')).toBe(
      'ricerca-massiva-Clienti-Studio-Pero-2026.pdf',
    );
    expect(resultFileName('../../etc/passwd', 'xlsx')).toBe('ricerca-massiva-etc-passwd.xlsx');
    expect(resultFileName('', 'xlsx')).toBe('ricerca-massiva-elenco.xlsx');
  });

  it('are offered until the job expires, and only for a completed job', () => {
    const job = completedBulkJob();
    const expires = Date.parse(job.expiresAt!);
    expect(isDownloadable(job, expires - 1)).toBe(true);
    expect(isDownloadable(job, expires)).toBe(false);
    expect(isDownloadable(bulkJob({ status: 'RUNNING' }))).toBe(false);
    expect(isDownloadable(completedBulkJob({ status: 'EXPIRED' }))).toBe(false);
  });

  it('are announced on the home page until one of them is downloaded', () => {
    const ready = completedBulkJob({ jobId: 'a' });
    expect(readyJobs([ready, completedBulkJob({ jobId: 'b', downloaded: true })])).toEqual([ready]);
  });
});

describe('the progress of a job', () => {
  it('is a percentage of the codes done, never beyond 0–100', () => {
    expect(progressPercent({ doneCodes: 1_234, totalCodes: 5_000 })).toBeCloseTo(24.68);
    expect(progressPercent({ doneCodes: 0, totalCodes: 0 })).toBe(0);
    expect(progressPercent({ doneCodes: 7, totalCodes: 5 })).toBe(100);
  });
});
