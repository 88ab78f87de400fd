/**
 * A stand-in for the portal's HTTP API in component tests: jsdom has no fetch, Request or Headers, so these
 * are the few pieces RTK Query's fetchBaseQuery and the session code use, answering from a route table.
 */

export interface FakeAnswer {
  status: number;
  body?: unknown;
  /** the answer comes once this settles (a slow server, for what the user does meanwhile) */
  after?: Promise<unknown>;
}

/** 'POST /api/auth/refresh' → answer */
export type FakeRoutes = Record<string, FakeAnswer>;

class FakeHeaders {
  private readonly values = new Map<string, string>();
  constructor(init?: Record<string, string> | FakeHeaders) {
    if (init instanceof FakeHeaders) init.values.forEach((v, k) => this.values.set(k, v));
    else Object.entries(init ?? {}).forEach(([k, v]) => this.set(k, v));
  }
  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }
  set(name: string, value: string): void {
    this.values.set(name.toLowerCase(), value);
  }
  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }
  delete(name: string): void {
    this.values.delete(name.toLowerCase());
  }
  forEach(visit: (value: string, name: string) => void): void {
    this.values.forEach(visit);
  }
}

class FakeRequest {
  readonly method: string;
  readonly headers: FakeHeaders;
  readonly body: unknown;
  constructor(
    readonly url: string,
    init: { method?: string; headers?: FakeHeaders; body?: unknown } = {},
  ) {
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = new FakeHeaders(init.headers);
    this.body = init.body;
  }
}

/**
 * The bodies sent since the fake was installed, by call ('POST /api/…'): JSON bodies parsed, multipart
 * ones as the FormData sent (read its fields with get()).
 */
export const sentBodies: { call: string; body: unknown }[] = [];

function fakeResponse({ status, body }: FakeAnswer) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const response = {
    ok: status >= 200 && status < 300,
    status,
    headers: new FakeHeaders({ 'content-type': 'application/json' }),
    clone: () => response,
    text: () => Promise.resolve(text),
    json: () => Promise.resolve(JSON.parse(text) as unknown),
    blob: () => Promise.resolve(new Blob([text])),
  };
  return response;
}

/** Installs the fake API; returns the list of calls made ('METHOD url'). Unknown routes answer 404. */
export function installFakeServer(routes: FakeRoutes): string[] {
  const calls: string[] = [];
  sentBodies.length = 0;
  const fetchImpl = (input: string | FakeRequest, init?: { method?: string }) => {
    const url = typeof input === 'string' ? input : input.url;
    const method = (typeof input === 'string' ? init?.method : input.method) ?? 'GET';
    const call = `${method.toUpperCase()} ${url}`;
    calls.push(call);
    const body = typeof input === 'string' ? undefined : input.body;
    if (typeof body === 'string') sentBodies.push({ call, body: JSON.parse(body) as unknown });
    else if (body instanceof FormData) sentBodies.push({ call, body });
    const answer = routes[call] ?? { status: 404, body: { code: 'G001' } };
    return Promise.resolve(answer.after).then(() => fakeResponse(answer));
  };
  Object.assign(globalThis, { fetch: fetchImpl, Headers: FakeHeaders, Request: FakeRequest });
  return calls;
}
