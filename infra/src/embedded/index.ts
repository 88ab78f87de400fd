export * from './data-dir-lock';
export * from './sqlite';
export * from './polling';
export * from './contract-helpers';
export * from './worker-script';
export * from './worker-pool';
