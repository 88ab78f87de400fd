/** Test and benchmark helpers of the search features (never used by the running API). */
export * from './api-harness';
export * from './test-fixtures';
