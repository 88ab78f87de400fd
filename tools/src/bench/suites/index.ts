/** Every benchmark suite `npm run bench` knows; add yours here. */
import type { BenchSuite } from '../bench-suite';
import { ingestionSuite } from './ingestion';
import { searchSuite } from './search';
import { storageSuite } from './storage';

export const benchSuites: BenchSuite[] = [storageSuite, ingestionSuite, searchSuite];
