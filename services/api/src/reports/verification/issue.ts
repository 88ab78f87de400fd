/** Issuing a verifiable report: its code, the page that verifies it, the archive it was made from. */
import { randomBytes } from 'node:crypto';
import { newReportCode, REPORT_CODE_RANDOM_BYTES, type IssuedReportStamp } from '@rna/domain';
import { ARCHIVE_FILES_COLLECTION, type ArchiveFileDoc } from '@rna/read-models';
import type { ApiDeps } from '../../http/deps';
import type { ArchiveExtent, ReportBranding, ReportVerification } from '../report-input';

/** The public page that verifies `code` (no sign-in). */
export function verificationUrl(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/$/, '')}/verifica/${code}`;
}

/** A new report's code and where it is verified; the stamp its download event records. */
export function issueReport(
  deps: Pick<ApiDeps, 'config'>,
  branding: ReportBranding,
): { verification: ReportVerification; stamp: IssuedReportStamp } {
  const code = newReportCode(randomBytes(REPORT_CODE_RANDOM_BYTES));
  return {
    verification: { code, url: verificationUrl(deps.config.publicUrl, code) },
    stamp: { code, organisation: branding.organisation },
  };
}

/** The register files the archive holds now (imported at least once), oldest and newest by name. */
export async function archiveExtent(deps: Pick<ApiDeps, 'documents'>): Promise<ArchiveExtent | null> {
  const files = await deps.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION).find();
  const imported = files
    .filter((file) => file.lastUpdate !== null)
    .map((file) => file.name)
    .sort();
  if (imported.length === 0) return null;
  return { files: imported.length, oldest: imported[0]!, newest: imported.at(-1)! };
}
