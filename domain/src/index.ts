export * from './errors';
export * from './events';
export * from './archive-files';
export * from './api';
export * from './tax-codes';
export * from './dates';
export * from './money';
export * from './formatting';
