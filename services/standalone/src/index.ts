export * from './config';
export * from './portal';
export * from './web-server';
