/**
 * GET /reports/verify/:code: anyone holding a report (a granting body, an auditor) asks whether the
 * portal issued it. No sign-in; misses are counted per address, so that nobody can try codes in bulk
 * (60 random bits make guessing hopeless anyway; the limit keeps the store's work bounded).
 */
import { z } from 'zod';
import { DomainError, formatReportCode, parseReportCode, type ReportVerificationDto } from '@rna/domain';
import { ISSUED_REPORTS_COLLECTION, type IssuedReportReadModel } from '@rna/read-models/issued-reports';
import { addressKey, reserveAttempt, type AttemptLimit } from '../../auth/attempts';
import { RetryLaterError } from '../../http/paid-work-limit';
import { defineRoute, reply, type AnyRoute } from '../../http/route';

/** Unverified codes an address may ask for in a quarter of an hour. */
export const VERIFICATION_MISSES: AttemptLimit = {
  counter: 'report-verify',
  limit: 30,
  windowMs: 15 * 60_000,
};

const verificationSchema = z.object({
  code: z.string(),
  issuedAt: z.number(),
  kind: z.string(),
  taxCodes: z.array(z.string()),
  organisation: z.string(),
});

export const verificationRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/reports/verify/:code',
    access: 'anonymous',
    tag: 'reports',
    summary:
      'Whether the portal issued the report with this code, when, for which tax codes and under which ' +
      'organisation (R001 not a code, R002 not issued; no sign-in)',
    params: z.object({ code: z.string().max(64) }),
    responses: { 200: { description: 'The report was issued', schema: verificationSchema } },
    async handler({ params, deps, req, res }) {
      const reservation = await reserveAttempt(deps, VERIFICATION_MISSES, addressKey(req.ip ?? 'unknown'));
      if (!reservation.ok) {
        res.setHeader('Retry-After', String(reservation.retryAfterSeconds));
        throw new RetryLaterError(reservation.retryAfterSeconds);
      }
      const code = parseReportCode(params.code);
      if (code === null) throw new DomainError('R001');
      const issued = await deps.documents
        .collection<IssuedReportReadModel>(ISSUED_REPORTS_COLLECTION)
        .get(code);
      if (!issued) throw new DomainError('R002');
      await reservation.release(); // only misses count
      const answer: ReportVerificationDto = {
        code: formatReportCode(issued.id),
        issuedAt: issued.issuedAt,
        kind: issued.kind,
        taxCodes: issued.taxCodes,
        organisation: issued.organisation,
      };
      return reply.json(answer);
    },
  }),
];
