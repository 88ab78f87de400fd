/** /logos (ADMIN) and the public logo images at /images/{fileName}. */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '@rna/domain';
import { logosReadModel } from '../accounts/read-models';
import { readYourWrites } from '../accounts/streams';
import { actorOf, defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { logoSchema } from '../http/schemas';
import { deleteLogo, getLogoDto, listLogos, MAX_LOGO_BYTES, setPdfConfig, uploadLogo } from './commands';

const logoParams = z.object({ id: z.coerce.number().int().min(-1_000_000).max(1_000_000_000) }).strict();
const nonEmpty = z.string().trim().min(1).max(200);

export const logosRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/logos',
    access: 'ADMIN',
    tag: 'logos',
    summary: 'Every logo: default first, then by name',
    responses: { 200: { description: 'Logos', schema: z.array(logoSchema) } },
    async handler({ deps }) {
      return reply.json(await listLogos(deps));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/logos',
    access: 'ADMIN',
    tag: 'logos',
    summary: 'Upload a PNG or JPEG logo (≤ 1 MB; F001 otherwise)',
    upload: { field: 'file', maxBytes: MAX_LOGO_BYTES, errorCode: 'F001' },
    body: z.object({ name: z.string({ error: 'F001' }).trim().min(1, 'F001').max(100, 'F001') }).strict(),
    responses: { 200: { description: 'The new logo', schema: logoSchema } },
    async handler(ctx) {
      const logoId = await uploadLogo(ctx.deps, actorOf(signedIn(ctx)), {
        name: ctx.body.name,
        bytes: ctx.file?.bytes ?? null,
      });
      await readYourWrites(ctx.deps);
      return reply.json(await getLogoDto(ctx.deps, logoId));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/logos/:id',
    access: 'ADMIN',
    tag: 'logos',
    summary: 'Delete a logo (F002 for built-in logos, id < 0)',
    params: logoParams,
    responses: { 204: { description: 'Deleted' } },
    async handler(ctx) {
      await deleteLogo(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id);
      await readYourWrites(ctx.deps);
      return reply.noContent();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/logos/:id/pdf-config',
    access: 'ADMIN',
    tag: 'logos',
    summary: 'PDF layout of a logo: primary colour (6 hex digits, optional #), two footers, renewal link',
    params: logoParams,
    body: z
      .object({
        primaryColor: z
          .string()
          .trim()
          .regex(/^#?[0-9a-fA-F]{6}$/),
        footer1: nonEmpty,
        footer2: nonEmpty,
        subRenewUrl: z
          .string()
          .trim()
          .max(2000)
          .refine((url) => url === '' || /^https?:\/\//i.test(url), 'must be an http(s) URL')
          .optional(),
      })
      .strict(),
    responses: { 200: { description: 'The logo', schema: logoSchema } },
    async handler(ctx) {
      const { body } = ctx;
      await setPdfConfig(ctx.deps, actorOf(signedIn(ctx)), ctx.params.id, {
        pdfConfig: {
          primaryColor: `#${body.primaryColor.replace('#', '').toUpperCase()}`,
          footer1: body.footer1,
          footer2: body.footer2,
        },
        subRenewUrl: body.subRenewUrl ?? '',
      });
      await readYourWrites(ctx.deps);
      return reply.json(await getLogoDto(ctx.deps, ctx.params.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/images/:fileName',
    // <img> tags send no bearer token: logo images are public.
    access: 'anonymous',
    tag: 'logos',
    summary: 'A logo image (ETag and Cache-Control; 304 when unchanged)',
    params: z.object({ fileName: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/) }).strict(),
    responses: {
      200: { description: 'The image', contentType: 'image/png' },
      304: { description: 'Not modified' },
    },
    async handler({ deps, params, req, res }) {
      const [logo] = await logosReadModel(deps).find({ fileName: params.fileName, deleted: false });
      const blob = logo ? await deps.blobs.get(logo.fileName) : null;
      if (!blob) throw new DomainError('J005', 'Immagine non trovata');
      const etag = `"${createHash('sha256').update(blob.bytes).digest('base64url').slice(0, 27)}"`;
      res.setHeader('ETag', etag);
      res.setHeader('Cache-Control', 'public, max-age=3600, must-revalidate');
      res.setHeader('Content-Type', blob.contentType);
      if (req.fresh) {
        res.status(304).end();
        return reply.handled();
      }
      res.status(200).send(blob.bytes);
      return reply.handled();
    },
  }),
];
