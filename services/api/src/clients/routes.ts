/** /clients: administration (ADMIN) and the client's own profile (/clients/me). */
import { z } from 'zod';
import { downloadFileName, isWellFormedTaxCode, normalizeTaxCode, type InvitedClientDto } from '@rna/domain';
import { normalizeEmail } from '../accounts/credentials';
import { readYourWrites } from '../accounts/streams';
import { actorOf, defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { clientSchema, invitedClientSchema, myClientSchema } from '../http/schemas';
import { getClientDto, getMyClient, listClientDtos } from './client-dto';
import {
  assignLogo,
  normalizeEndDate,
  removeClient,
  renewAccess,
  setFixedTaxCode,
  setFlags,
  setLimits,
} from './commands';
import { clientsWorkbook } from './export';
import { inviteClient } from './invite';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Normalised (spaces out, uppercase); T002 unless 11 to 16 letters and digits (the domain's rule). */
const taxCode = z.string().max(200).transform(normalizeTaxCode).refine(isWellFormedTaxCode, 'T002');
const clientParams = z.object({ id: z.string().min(1).max(64) }).strict();
const count = z.number().int().min(0).max(1_000_000);
const clientDto = { 200: { description: 'The client after the change', schema: clientSchema } };

/** Runs a change, waits for the read model, answers the client as it is now. */
function changed(change: () => Promise<void>, deps: Parameters<typeof getClientDto>[0], id: string) {
  return change()
    .then(() => readYourWrites(deps))
    .then(() => getClientDto(deps, id))
    .then((dto) => reply.json(dto));
}

export const clientsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/clients/me',
    access: 'CLIENT',
    allowExpiredClient: true,
    tag: 'clients',
    summary: 'The signed-in client: remaining searches and end date',
    responses: { 200: { description: 'The client', schema: myClientSchema } },
    async handler(ctx) {
      return reply.json(await getMyClient(ctx.deps, signedIn(ctx).userId));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/clients',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Every client, by email',
    responses: { 200: { description: 'Clients', schema: z.array(clientSchema) } },
    async handler({ deps }) {
      return reply.json(await listClientDtos(deps));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/clients/export',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Every client as an Excel file (clienti-<day>.xlsx)',
    responses: { 200: { description: 'clienti-<day>.xlsx', contentType: XLSX } },
    async handler({ deps }) {
      const now = deps.clock();
      const bytes = await clientsWorkbook(await listClientDtos(deps), now);
      return reply.file({ contentType: XLSX, fileName: downloadFileName('clienti', 'xlsx', now), bytes });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/clients/invite',
    access: 'ADMIN',
    tag: 'clients',
    summary:
      'Invite a client: creates it and mails the invitation code (U002 email in use, G003 mail failed)',
    body: z
      .object({
        email: z.string().trim().max(320).pipe(z.email()),
        fixedTaxCode: z.union([taxCode, z.literal(''), z.null()]).optional(),
      })
      .strict(),
    responses: {
      200: {
        description: 'The new client, with its invitation code (given back this once only)',
        schema: invitedClientSchema,
      },
    },
    async handler(ctx) {
      const { deps, body } = ctx;
      const { clientId, invitationCode } = await inviteClient(deps, actorOf(signedIn(ctx)), {
        email: normalizeEmail(body.email),
        fixedTaxCode: body.fixedTaxCode ? body.fixedTaxCode : null,
      });
      await readYourWrites(deps);
      const invited: InvitedClientDto = { ...(await getClientDto(deps, clientId)), invitationCode };
      return reply.json(invited);
    },
  }),
  defineRoute({
    method: 'put',
    path: '/clients/:id',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Change PDF and variation-alert permissions',
    params: clientParams,
    body: z
      .object({ enableVariationAlerts: z.boolean().optional(), pdfEnabled: z.boolean().optional() })
      .strict(),
    responses: clientDto,
    handler: (ctx) =>
      changed(
        () => setFlags(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id, ctx.body),
        ctx.deps,
        ctx.params.id,
      ),
  }),
  defineRoute({
    method: 'delete',
    path: '/clients/:id',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Remove a client (its sign-in stops working at once)',
    params: clientParams,
    responses: { 204: { description: 'Removed' } },
    async handler(ctx) {
      await removeClient(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id);
      await readYourWrites(ctx.deps);
      return reply.noContent();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/clients/:id/change-logo',
    access: 'ADMIN',
    tag: 'clients',
    summary: "Assign the logo of the client's navigation bar and PDF reports",
    params: clientParams,
    body: z.object({ logoId: z.number().int() }).strict(),
    responses: clientDto,
    handler: (ctx) =>
      changed(
        () => assignLogo(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id, ctx.body.logoId),
        ctx.deps,
        ctx.params.id,
      ),
  }),
  defineRoute({
    method: 'put',
    path: '/clients/:id/fixed-tax-code/:code',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Limit the client to one tax code (T002 shorter than 11 characters)',
    params: z.object({ id: z.string().min(1).max(64), code: taxCode }).strict(),
    responses: clientDto,
    handler: (ctx) =>
      changed(
        () => setFixedTaxCode(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id, ctx.params.code),
        ctx.deps,
        ctx.params.id,
      ),
  }),
  defineRoute({
    method: 'delete',
    path: '/clients/:id/fixed-tax-code',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Remove the tax-code limit',
    params: clientParams,
    responses: clientDto,
    handler: (ctx) =>
      changed(
        () => setFixedTaxCode(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id, null),
        ctx.deps,
        ctx.params.id,
      ),
  }),
  defineRoute({
    method: 'put',
    path: '/clients/:id/limits',
    access: 'ADMIN',
    tag: 'clients',
    summary:
      'Set the yearly and remaining searches and the end date (epoch ms or YYYY-MM-DD, kept at 12:00 Rome)',
    params: clientParams,
    body: z
      .object({
        availableYearlySearches: count,
        remainingSearches: count,
        endDate: z.union([z.number().int().min(0).max(8.64e15), z.string().regex(/^\d{4}-\d{2}-\d{2}$/)]),
      })
      .strict(),
    responses: clientDto,
    handler: (ctx) =>
      changed(
        () =>
          setLimits(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id, {
            ...ctx.body,
            endDate: normalizeEndDate(ctx.body.endDate),
          }),
        ctx.deps,
        ctx.params.id,
      ),
  }),
  defineRoute({
    method: 'put',
    path: '/clients/:id/pdf-enabled',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Allow or forbid PDF reports',
    params: clientParams,
    body: z.object({ enabled: z.boolean() }).strict(),
    responses: clientDto,
    handler: (ctx) =>
      changed(
        () => setFlags(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id, { pdfEnabled: ctx.body.enabled }),
        ctx.deps,
        ctx.params.id,
      ),
  }),
  defineRoute({
    method: 'put',
    path: '/clients/:id/enable-variation-alerts',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Allow or forbid variation alerts',
    params: clientParams,
    body: z.object({ enable: z.boolean() }).strict(),
    responses: clientDto,
    handler: (ctx) =>
      changed(
        () =>
          setFlags(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id, {
            enableVariationAlerts: ctx.body.enable,
          }),
        ctx.deps,
        ctx.params.id,
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/clients/:id/renew',
    access: 'ADMIN',
    tag: 'clients',
    summary: 'Renew access: end date + 1 year, remaining searches back to the yearly allowance',
    params: clientParams,
    responses: clientDto,
    handler: (ctx) =>
      changed(() => renewAccess(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id), ctx.deps, ctx.params.id),
  }),
];
