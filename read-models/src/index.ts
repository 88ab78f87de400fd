export * from './projection';
export * from './all-projections';
export * from './indexing';
export * from './archive/read-models';
export * from './sync-worker';
