/** The thread that lays out bulk PDFs (see bulk-pdf.ts). */
import { serveTasks } from '@rna/infra/embedded';
import type { ReportBranding } from '../reports/report-input';
import { bulkPdf, type BulkResult } from './result-files';

serveTasks(({ result, branding }: { result: BulkResult; branding: ReportBranding }) =>
  bulkPdf(result, branding),
);
