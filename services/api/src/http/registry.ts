/**
 * Builds the express router from route definitions: per route, authentication and roles first,
 * then body parsing (JSON ≤ 100 kB or one multipart file), then zod validation of params, query
 * and body, then the handler. Unknown paths answer J005; every error goes through errorHandler.
 */
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import multer from 'multer';
import { DomainError } from '@rna/domain';
import { authenticate } from './authenticate';
import type { ApiDeps } from './deps';
import { errorHandler, sendError } from './errors';
import { countWriteRequest } from './paid-work-limit';
import type { AnyRoute, Reply, UploadedFile } from './route';

export const JSON_BODY_LIMIT = '100kb';

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function jsonBody(limit = JSON_BODY_LIMIT): RequestHandler {
  const parse = express.json({ limit, strict: true });
  return (req, res, next) => {
    // A body in another format is refused (J004) rather than silently ignored.
    if (hasBody(req) && !req.is('application/json')) {
      next(new DomainError('J004'));
      return;
    }
    parse(req, res, next);
  };
}

function fileUpload(route: AnyRoute): RequestHandler {
  const upload = route.upload;
  if (!upload) throw new Error('fileUpload without an upload declaration');
  const single = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: upload.maxBytes, files: 1, fields: 20, fieldSize: 10_000, parts: 25 },
  }).single(upload.field);
  const json = upload.orJson ? jsonBody(route.jsonLimit) : null;
  return (req, res, next) => {
    if (json && !req.is('multipart/form-data')) {
      json(req, res, next);
      return;
    }
    single(req, res, (error?: unknown) => {
      if (error) next(new DomainError(upload.errorCode));
      else next();
    });
  };
}

function sendReply(res: Response, result: Reply): void {
  switch (result.kind) {
    case 'json':
      res.status(result.status).json(result.body);
      return;
    case 'empty':
      res.status(204).end();
      return;
    case 'file':
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      res.setHeader('Content-Type', result.contentType);
      if (result.fileName) res.attachment(result.fileName);
      res.status(200).send(result.bytes);
      return;
    case 'handled':
      return;
  }
}

function mountRoute(router: Router, route: AnyRoute, deps: ApiDeps): void {
  const handlers: RequestHandler[] = [];
  // Authorise before reading any body: an anonymous caller learns nothing about the payload rules.
  handlers.push(async (req, res, next) => {
    res.locals.principal = await authenticate(route, req, deps);
    // every change a signed-in user asks for counts in that user's budget of writes, before any body is read
    const principal = res.locals.principal as { userId: string } | null | undefined;
    if (route.method !== 'get' && principal) await countWriteRequest(deps, principal.userId);
    next();
  });
  if (route.upload) handlers.push(fileUpload(route));
  else if (route.body) handlers.push(jsonBody(route.jsonLimit));
  handlers.push(async (req: Request, res: Response, _next: NextFunction) => {
    const params = route.params ? route.params.parse(req.params) : {};
    const query = route.query ? route.query.parse(req.query ?? {}) : {};
    const body = route.body ? route.body.parse(req.body ?? (route.upload ? {} : undefined)) : {};
    const file: UploadedFile | null = req.file
      ? {
          fieldName: req.file.fieldname,
          originalName: req.file.originalname,
          mimeType: req.file.mimetype,
          bytes: req.file.buffer,
        }
      : null;
    const result = await route.handler({
      params,
      query,
      body,
      file,
      principal: res.locals.principal ?? null,
      deps,
      req,
      res,
    });
    sendReply(res, result);
  });
  router[route.method](route.path, ...handlers);
}

/** Fails fast on a definition the authorisation walk or OpenAPI could not handle. */
export function checkRoutes(routes: readonly AnyRoute[]): void {
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method.toUpperCase()} ${route.path}`;
    if (seen.has(key)) throw new Error(`Route registered twice: ${key}`);
    seen.add(key);
    if (!['anonymous', 'signed-in', 'ADMIN', 'CLIENT'].includes(route.access))
      throw new Error(`Route without a valid access declaration: ${key}`);
    if (!route.summary) throw new Error(`Route without an OpenAPI summary: ${key}`);
  }
}

export function buildRouter(routes: readonly AnyRoute[], deps: ApiDeps): Router {
  checkRoutes(routes);
  const router = express.Router();
  router.use((_req, res, next) => {
    // API answers are per user: never let a shared cache keep them (images override this).
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  for (const route of routes) mountRoute(router, route, deps);
  router.use((_req, res) => sendError(res, 'J005'));
  router.use(errorHandler(deps.logger));
  return router;
}
