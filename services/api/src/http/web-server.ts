/**
 * The HTTP shell of the standalone portal: the API under /api, the runtime configuration the
 * front end reads at start (/config.json), the built front end with a single-page-app fallback,
 * and a shutdown that stops accepting, drains open requests and then resolves.
 */
import compression from 'compression';
import express, { type RequestHandler, type Router } from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { RuntimeConfigDto } from '@rna/domain';

export interface WebServerOptions {
  apiRouter: Router;
  frontendDir: string;
  runtimeConfig: () => RuntimeConfigDto;
  port: number;
  host?: string;
  /** Where users reach the portal: HSTS is sent only when it is https. */
  publicUrl?: string;
  /** Express's 'trust proxy' (TRUST_PROXY); default loopback. */
  trustProxy?: boolean | number | string;
}

export interface RunningWebServer {
  url: string;
  port: number;
  /** Stops accepting, waits for in-flight requests (at most graceMs), then closes idle sockets. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Security headers on every answer, pages and API alike: scripts only from the portal itself (no
 * inline script, no eval), no plugins, no framing by other sites, no <base> hijack, forms posting
 * only here. Styles may be inline: the chart library and React set style attributes.
 */
export function securityHeaders(publicUrl?: string): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    strictTransportSecurity: publicUrl?.startsWith('https://')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    referrerPolicy: { policy: 'same-origin' },
    // The portal serves no cross-origin resources; these defaults would only get in the way of
    // downloads opened from blob: URLs.
    crossOriginEmbedderPolicy: false,
  });
}

export function createWebApp(options: Omit<WebServerOptions, 'port' | 'host'>): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // API answers are no-store and the static files carry their own validators: hashing every JSON
  // body for an ETag nobody can use is wasted work on each search.
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy ?? 'loopback');
  app.use(securityHeaders(options.publicUrl));
  // A search of a large company is megabytes of repetitive JSON: gzip or brotli (quality 4) takes it
  // to a tenth. PDFs and workbooks are already compressed and are left as they are.
  app.use(compression());
  app.use('/api', options.apiRouter);
  app.get('/config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(options.runtimeConfig());
  });
  const index = path.join(options.frontendDir, 'index.html');
  if (existsSync(index)) {
    // Hashed assets can be cached for a long time; index.html must always be revalidated.
    app.use(
      '/assets',
      express.static(path.join(options.frontendDir, 'assets'), { immutable: true, maxAge: '1y' }),
    );
    app.use(express.static(options.frontendDir, { index: false, maxAge: '1h' }));
    app.get(/.*/, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    });
  } else {
    app.get(/.*/, (_req, res) => {
      res
        .status(503)
        .type('text/plain')
        .send('Front end not built: run `npm start` (it builds it) or `npm run build`.');
    });
  }
  return app;
}

export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const app = createWebApp(options);
  const server = http.createServer(app);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}`,
    port,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
