export * from './worker';
export * from './request-sync';
export * from './plan';
export * from './live-progress';
export * from './ports';
