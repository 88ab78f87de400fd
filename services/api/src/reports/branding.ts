/** The client's brand for the PDF: its logo (inlined as a data URL from the blobs store) and PDF layout. */
import { DEFAULT_LOGO_ID, findLogo } from '../accounts/read-models';
import type { ApiDeps } from '../http/deps';
import { DEFAULT_BRANDING, type ReportBranding } from './report-input';

export async function reportBranding(deps: ApiDeps, logoId: number): Promise<ReportBranding> {
  const logo = (await findLogo(deps, logoId)) ?? (await findLogo(deps, DEFAULT_LOGO_ID));
  if (!logo) return DEFAULT_BRANDING;
  const image = await deps.blobs.get(logo.fileName);
  return {
    logoDataUrl: image ? `data:${image.contentType};base64,${image.bytes.toString('base64')}` : null,
    primaryColor: logo.pdfConfig.primaryColor || DEFAULT_BRANDING.primaryColor,
    footer1: logo.pdfConfig.footer1,
    footer2: logo.pdfConfig.footer2,
    subRenewUrl: logo.subRenewUrl,
    organisation: logo.name,
  };
}
