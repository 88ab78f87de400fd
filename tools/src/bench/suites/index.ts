/** Every benchmark suite `npm run bench` knows; add yours here. */
import type { BenchSuite } from '../bench-suite';

/**
 * A suite's module is loaded only when it runs: one suite's imports (the API, Chromium,
 * autocannon…) must not weigh on another suite's memory figures.
 */
export interface BenchSuiteEntry {
  name: string;
  load(): Promise<BenchSuite>;
}

export const benchSuites: BenchSuiteEntry[] = [
  { name: 'storage', load: () => import('./storage.js').then((m) => m.storageSuite) },
  { name: 'ingestion', load: () => import('./ingestion.js').then((m) => m.ingestionSuite) },
  { name: 'search', load: () => import('./search.js').then((m) => m.searchSuite) },
];
