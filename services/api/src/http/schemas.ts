/** Response shapes (domain/src/api.ts) as zod schemas, for /openapi.json only. */
import { z } from 'zod';

export const logoRefSchema = z.object({ id: z.number().int(), name: z.string(), fileName: z.string() });

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(['ADMIN', 'CLIENT']),
  taxCode: z.string().nullable(),
  pdfEnabled: z.boolean(),
  enableVariationAlerts: z.boolean(),
  logo: logoRefSchema.nullable(),
  remainingSearches: z.number().int().optional(),
  availableYearlySearches: z.number().int().optional(),
  endDate: z.number().int().optional().describe('epoch ms'),
});

export const authTokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  user: userSchema,
  passwordChangeRequired: z
    .literal(true)
    .optional()
    .describe('signed in with the invitation code: choose a password first, other routes answer A004'),
});

export const myClientSchema = z.object({
  id: z.string(),
  email: z.string(),
  remainingSearches: z.number().int(),
  availableYearlySearches: z.number().int(),
  endDate: z.number().int(),
});

export const clientSchema = z.object({
  id: z.string(),
  email: z.string(),
  taxCode: z.string().nullable(),
  invitedAt: z.number().int(),
  active: z.boolean(),
  activationTime: z.number().int().nullable(),
  lastAccessTime: z.number().int().nullable(),
  endDate: z.number().int(),
  availableYearlySearches: z.number().int(),
  remainingSearches: z.number().int(),
  enableVariationAlerts: z.boolean(),
  pdfEnabled: z.boolean(),
  logo: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  status: z.enum(['Scaduto', 'Attivo', 'In attesa']),
});

/** The invite's answer: the only time the invitation code is given back. */
export const invitedClientSchema = clientSchema.extend({ invitationCode: z.string() });

export const pdfConfigSchema = z.object({
  primaryColor: z.string(),
  footer1: z.string(),
  footer2: z.string(),
});

export const logoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  fileName: z.string(),
  subRenewUrl: z.string(),
  pdfConfig: pdfConfigSchema,
});

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  stores: z.record(z.string(), z.enum(['ok', 'error'])),
  deadLetters: z.number().int(),
  indexing: z.object({
    complete: z.boolean(),
    missingAids: z.number().int(),
    pendingAids: z.number().int(),
  }),
});
