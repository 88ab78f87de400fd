/**
 * A route definition: everything the registry needs to mount it, authorise it, validate it
 * and describe it in /openapi.json. Feature folders export arrays of these.
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Actor, ErrorCode, Role } from '@rna/domain';
import type { ApiDeps } from './deps';

/** Who may call a route: nobody signed in, any signed-in user, or one role. */
export type Access = 'anonymous' | 'signed-in' | 'ADMIN' | 'CLIENT';
export const ACCESS_LEVELS: readonly Access[] = ['anonymous', 'signed-in', 'ADMIN', 'CLIENT'];

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface Principal {
  userId: string;
  email: string;
  role: Role;
  /** The account's token version the access token was signed with (see Credential). */
  tokenVersion?: number;
  /** The sign-in (refresh family) the access token belongs to. */
  sessionId?: string;
}

export interface UploadedFile {
  fieldName: string;
  originalName: string;
  mimeType: string;
  bytes: Buffer;
}

export type Reply =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'empty' }
  | { kind: 'file'; contentType: string; fileName?: string; bytes: Buffer; headers?: Record<string, string> }
  /** The handler wrote the response itself (streaming, conditional GET…). */
  | { kind: 'handled' };

export const reply = {
  json: (body: unknown, status = 200): Reply => ({ kind: 'json', status, body }),
  noContent: (): Reply => ({ kind: 'empty' }),
  file: (file: Omit<Extract<Reply, { kind: 'file' }>, 'kind'>): Reply => ({ kind: 'file', ...file }),
  handled: (): Reply => ({ kind: 'handled' }),
};

type Schema = z.ZodType | undefined;
export type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** null only on anonymous routes. */
  principal: Principal | null;
  file: UploadedFile | null;
  deps: ApiDeps;
  req: Request;
  res: Response;
}

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
}

export interface RouteDefinition<
  P extends Schema = Schema,
  Q extends Schema = Schema,
  B extends Schema = Schema,
> {
  method: HttpMethod;
  /** Express syntax, relative to /api: `/clients/:id`. */
  path: string;
  access: Access;
  /**
   * Lets an expired CLIENT through (SPEC §6: A002 = expired subscription). Only the reads that
   * show the client its own status allow it; everything else answers A002.
   */
  allowExpiredClient?: boolean;
  /**
   * Lets a CLIENT through that signed in with its invitation code and has not chosen its own
   * password yet: only the choice of the password allows it; everything else answers A004.
   */
  allowBeforeFirstPassword?: boolean;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * multipart/form-data with one file field; the other fields are validated by `body`. With
   * `orJson`, a JSON body is taken instead when the request is not multipart.
   */
  upload?: { field: string; maxBytes: number; errorCode: ErrorCode; orJson?: boolean };
  /** Largest JSON body (express.json's limit syntax); default JSON_BODY_LIMIT (100 kB). */
  jsonLimit?: string;
  responses?: Record<number, ResponseDoc>;
  handler(ctx: RouteContext<Parsed<P>, Parsed<Q>, Parsed<B>>): Promise<Reply>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDefinition<any, any, any>;

/** Keeps the schema types flowing into the handler. */
export function defineRoute<
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
>(definition: RouteDefinition<P, Q, B>): AnyRoute {
  return definition as AnyRoute;
}

/** The signed-in user of a non-anonymous route. */
export function signedIn(ctx: { principal: Principal | null }): Principal {
  if (!ctx.principal) throw new Error('signedIn() used on an anonymous route');
  return ctx.principal;
}

export function actorOf(principal: Principal): Actor {
  return { userId: principal.userId, email: principal.email, role: principal.role };
}
