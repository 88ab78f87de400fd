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
}

/**
 * The API process's young generation (`npm run start:api`, the compose `api` service): see the
 * README's Performance section. The search suite measures that process.
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=32'] as const;

export const benchSuites: BenchSuiteEntry[] = [
  { name: 'storage', load: () => import('./storage.js').then((m) => m.storageSuite) },
  { name: 'ingestion', load: () => import('./ingestion.js').then((m) => m.ingestionSuite) },
  { name: 'register', load: () => import('./register.js').then((m) => m.registerSuite) },
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
