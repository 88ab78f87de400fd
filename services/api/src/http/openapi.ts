/** /openapi.json, generated from the same route definitions that build the router. */
import { z } from 'zod';
import { ERROR_CATALOGUE, errorStatus, type ErrorCode } from '@rna/domain';
import type { AnyRoute } from './route';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** `/clients/:id` → `/clients/{id}` */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const json = toSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

function pathParamsWithoutSchema(route: AnyRoute): unknown[] {
  if (route.params) return [];
  return [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

function requestBodyOf(route: AnyRoute): unknown {
  if (route.upload) {
    const fields = route.body ? toSchema(route.body) : { type: 'object', properties: {} };
    const properties = { ...((fields.properties as JsonSchema | undefined) ?? {}) };
    properties[route.upload.field] = { type: 'string', format: 'binary' };
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties,
            required: [route.upload.field, ...((fields.required as string[]) ?? [])],
          },
        },
      },
    };
  }
  if (!route.body) return undefined;
  return { required: true, content: { 'application/json': { schema: toSchema(route.body) } } };
}

function refusalsOf(route: AnyRoute): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (route.access !== 'anonymous') codes.push('A001');
  if (route.access === 'ADMIN' || route.access === 'CLIENT') codes.push('P001');
  if (route.access !== 'anonymous' && route.access !== 'ADMIN' && !route.allowExpiredClient)
    codes.push('A002');
  if (route.access !== 'anonymous' && route.access !== 'ADMIN' && !route.allowBeforeFirstPassword)
    codes.push('A004');
  if (route.body || route.query || route.params || route.upload) codes.push('J001');
  return codes;
}

function responsesOf(route: AnyRoute): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, doc] of Object.entries(route.responses ?? { 200: { description: 'OK' } })) {
    responses[status] = doc.schema
      ? {
          description: doc.description,
          content: { [doc.contentType ?? 'application/json']: { schema: toSchema(doc.schema) } },
        }
      : doc.contentType
        ? {
            description: doc.description,
            content: { [doc.contentType]: { schema: { type: 'string', format: 'binary' } } },
          }
        : { description: doc.description };
  }
  for (const code of refusalsOf(route)) {
    const status = String(errorStatus(code));
    const existing = responses[status] as { description: string } | undefined;
    const description = `${code}: ${ERROR_CATALOGUE[code].message}`;
    responses[status] = {
      description: existing ? `${existing.description}; ${description}` : description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return responses;
}

function operationId(route: AnyRoute): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/^:/, 'by-'))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [route.method, ...words].map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

export function buildOpenApiDocument(routes: readonly AnyRoute[], info: { version: string }): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: operationId(route),
      summary: route.summary,
      tags: [route.tag],
      'x-access': route.access,
      ...(route.allowExpiredClient ? { 'x-allow-expired-client': true } : {}),
      security: route.access === 'anonymous' ? [] : [{ bearer: [] }],
      parameters: [
        ...parametersOf(route.params, 'path'),
        ...pathParamsWithoutSchema(route),
        ...parametersOf(route.query, 'query'),
      ],
      ...(requestBodyOf(route) ? { requestBody: requestBodyOf(route) } : {}),
      responses: responsesOf(route),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Portale Aiuti di Stato — API',
      version: info.version,
      description: 'All paths are relative to /api. Errors answer {code, message} with the catalogue status.',
    },
    servers: [{ url: '/api' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
            message: { type: 'string' },
          },
        },
      },
    },
  };
}
