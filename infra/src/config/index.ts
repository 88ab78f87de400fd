export * from './clock';
export * from './config';
export * from './shutdown';
export * from './heartbeat';
export * from './heap-growth';
