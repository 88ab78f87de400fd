export * from './errors';
export * from './events';
export * from './archive-files';
export * from './api';
