export * from './worker';
export * from './sync-control';
export * from './plan';
export * from './live-progress';
export * from './ports';
