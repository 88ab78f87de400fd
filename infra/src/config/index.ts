export * from './config';
export * from './shutdown';
