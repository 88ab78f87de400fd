/** Maps every failure to `{code, message}` with the catalogue's status; never a stack trace. */
import { isStorageError } from '@rna/infra/storage-errors';
import type { ErrorRequestHandler, Response } from 'express';
import { z } from 'zod';
import {
  DomainError,
  ERROR_CATALOGUE,
  errorStatus,
  isErrorCode,
  type ErrorBody,
  type ErrorCode,
} from '@rna/domain';
import type { Logger } from 'pino';

export function sendError(res: Response, code: ErrorCode, message?: string): void {
  const body: ErrorBody = { code, message: message ?? ERROR_CATALOGUE[code].message };
  res.status(errorStatus(code)).json(body);
}

/** A validation failure: the first issue whose message is a catalogue code wins (e.g. T002), else J001. */
export function codeForValidation(error: z.ZodError): ErrorCode {
  for (const issue of error.issues) if (isErrorCode(issue.message)) return issue.message;
  return 'J001';
}

export function describeValidation(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return ERROR_CATALOGUE.J001.message;
  if (isErrorCode(first.message)) return ERROR_CATALOGUE[first.message].message;
  const where = first.path.length ? first.path.join('.') : 'richiesta';
  return `Dati non validi (${where}): ${first.message}`;
}

interface HttpParserError {
  type?: string;
  status?: number;
}

/** body-parser failures carry a `type`; map them to the catalogue. */
function codeForParserError(error: HttpParserError): ErrorCode | null {
  switch (error.type) {
    case 'entity.too.large':
      return 'J003';
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return 'J004';
    case 'entity.parse.failed':
    case 'entity.verify.failed':
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'parameters.too.many':
      return 'J001';
    default:
      return null;
  }
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof DomainError) {
      const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
      if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
      sendError(res, error.code, error.message);
      return;
    }
    if (error instanceof z.ZodError) {
      sendError(res, codeForValidation(error), describeValidation(error));
      return;
    }
    // A malformed percent-encoding in the path (Express fails to decode a route parameter): the
    // request is bad, not the server.
    if (error instanceof URIError) {
      sendError(res, 'J001');
      return;
    }
    const parserCode = typeof error === 'object' && error !== null ? codeForParserError(error) : null;
    if (parserCode) {
      sendError(res, parserCode);
      return;
    }
    if (isStorageError(error)) {
      logger.error({ err: error, method: req.method, path: req.path }, 'storage failure in API request');
      sendError(res, 'G002');
      return;
    }
    // Unexpected: log what helps (never headers or bodies, which may hold tokens or passwords).
    logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error in API request');
    sendError(res, 'G001');
  };
}
