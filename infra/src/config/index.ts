export * from './clock';
export * from './config';
export * from './shutdown';
export * from './heartbeat';
