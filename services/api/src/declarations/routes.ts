/**
 * GET /de-minimis/declaration: the de minimis self-declaration of an undertaking (some tax codes, or
 * one of the user's groups) for a planned grant, as a pre-filled PDF. Refused, charged and audited like
 * a report PDF of its codes (free for codes looked up today; P001 without pdfEnabled).
 */
import { DomainError, downloadFileName } from '@rna/domain';
import { undertakingAsked, undertakingQuerySchema } from '../de-minimis/undertaking';
import { downloadProfile } from '../documents/profile';
import { performLookUp } from '../documents/search';
import { defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { reportBranding } from '../reports/branding';
import { renderingPdf } from '../reports/pdf-failures';
import { withPortalMetadata } from '../reports/pdf-report';
import { pdfFooterTemplate } from '../reports/pdf-template';
import { archiveExtent, issueReport } from '../reports/verification/issue';
import { declarationFacts } from './declaration';
import { DECLARATION_TITLE, declarationHtml } from './declaration-html';

/** dichiarazione-de-minimis-<codes>-<day>.pdf, named like every other download (file-names.ts) */
export const DECLARATION_FILE = 'dichiarazione-de-minimis-<codici>-<data>.pdf';
const DECLARATION_SUBJECT =
  'Dichiarazione sostitutiva (DPR 445/2000) degli aiuti de minimis di un’impresa unica per una concessione prevista';

export const declarationsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/de-minimis/declaration',
    access: 'signed-in',
    allowExpiredClient: true,
    tag: 'documents',
    summary:
      'Pre-filled de minimis self-declaration (DPR 445/2000) of an undertaking (taxCodes or group) for a planned grant date and regime; charged like a report PDF',
    query: undertakingQuerySchema,
    responses: { 200: { description: DECLARATION_FILE, contentType: 'application/pdf' } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      // J001 / D001 / D002 / I003 / T00x, then P001 / G001, all before anything is charged
      const asked = await undertakingAsked(ctx.deps, principal, ctx.query);
      const profile = await downloadProfile(ctx.deps, principal, 'declaration');
      const renderer = ctx.deps.pdfRenderer;
      if (!renderer) throw new DomainError('G001');
      const branding = await reportBranding(ctx.deps, profile.logoId);
      const { verification, stamp } = issueReport(ctx.deps, branding);
      const { result: facts } = await performLookUp(
        ctx.deps,
        profile,
        { taxCodes: asked.taxCodes, deMinimis: true, last3Years: false },
        'declaration',
        (found) => declarationFacts(asked, found),
        // the audit records how many aids the declaration lists
        (declared) => declared.aids.length,
        stamp,
      );
      const generatedAt = ctx.deps.clock();
      const html = declarationHtml({
        ...facts,
        branding,
        generatedAt,
        verification,
        archive: await archiveExtent(ctx.deps),
      });
      const bytes = await renderingPdf(ctx.deps, 'De minimis declaration', async () =>
        // the portal's document properties, as on a report, not Chromium's
        withPortalMetadata(
          await renderer.render(html, { footerTemplate: pdfFooterTemplate(branding, verification) }),
          {
            title: `${DECLARATION_TITLE} – ${facts.group?.name ?? asked.taxCodes.join(', ')}`,
            subject: DECLARATION_SUBJECT,
            organisation: branding.organisation,
            madeAt: generatedAt,
          },
        ),
      );
      const fileName = downloadFileName('dichiarazione-de-minimis', 'pdf', generatedAt, asked.taxCodes);
      return reply.file({ contentType: 'application/pdf', fileName, bytes });
    },
  }),
];
