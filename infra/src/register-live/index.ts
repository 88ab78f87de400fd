export * from './port';
export * from './mapping';
export * from './http-client';
