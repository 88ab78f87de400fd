/** Every benchmark suite `npm run bench` knows; add yours here. */
import type { BenchSuite } from '../bench-suite';

/**
 * A suite's module is loaded only when it runs: one suite's imports (the API, Chromium,
 * autocannon…) must not weigh on another suite's memory figures.
 */
export interface BenchSuiteEntry {
  name: string;
  load(): Promise<BenchSuite>;
  /** Node flags of the process the suite measures, added to the bench's own. */
  nodeFlags?: readonly string[];
  /** Environment of the process the suite measures, where the bench's own does not set it. */
  env?: Readonly<Record<string, string>>;
}

/**
 * The API process's young generation (`npm run start:api`, the compose `api` service): see the
 * README's Performance section. The search suite measures that process.
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=32'] as const;

/**
 * The environment the portal's processes run with (`npm start` and the `start:*` scripts, the image):
 * two malloc arenas, not glibc's eight per core — each thread that allocates (the parser and index
 * writer threads, V8's helpers, libuv's pool) otherwise takes an arena of its own and keeps its freed
 * memory. The register suite measures the portal's sync in that environment.
 */
export const PORTAL_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/**
 * The node flags of the processes that sync or project (`npm start`, `start:sync`, `start:projector`,
 * at the defaults their scripts give): one thread for V8's garbage-collection helpers instead of four,
 * and no concurrent marking. On two cores the sync's own threads (main, index writer, parsers) already
 * keep both busy, and the helpers' parallel work only took turns with them: the rehearsal's first sync
 * of 750,000 aids took 9 % less time with one (README). Marking on that helper cost more than marking
 * in steps on the thread whose heap it is: a first sync of 1 million generated aids took 129.5 s
 * against 135.5–137.3 (CPU 234 s against 244–247; the helper's 43 CPU-s fell to 31), at a peak
 * ~20 MB higher (359 MB against 335–346). The rebuild keeps V8's four helpers and its concurrent
 * marking: it was no faster with one helper (without concurrent marking it was not measured). The
 * register suite measures the sync with them.
 */
export const BULK_NODE_FLAGS = ['--v8-pool-size=1', '--no-concurrent-marking'] as const;

export const benchSuites: BenchSuiteEntry[] = [
  { name: 'storage', load: () => import('./storage.js').then((m) => m.storageSuite) },
  { name: 'ingestion', load: () => import('./ingestion.js').then((m) => m.ingestionSuite) },
  {
    name: 'register',
    load: () => import('./register.js').then((m) => m.registerSuite),
    env: PORTAL_ENV,
    nodeFlags: BULK_NODE_FLAGS,
  },
  {
    name: 'search',
    load: () => import('./search.js').then((m) => m.searchSuite),
    nodeFlags: API_NODE_FLAGS,
  },
  {
    name: 'reports',
    load: () => import('./reports.js').then((m) => m.reportsSuite),
    nodeFlags: API_NODE_FLAGS,
  },
  {
    name: 'bulk',
    load: () => import('./bulk.js').then((m) => m.bulkSuite),
    nodeFlags: API_NODE_FLAGS,
  },
  {
    name: 'event-loop',
    load: () => import('./event-loop.js').then((m) => m.eventLoopSuite),
    nodeFlags: API_NODE_FLAGS,
  },
];
