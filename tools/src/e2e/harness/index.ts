export * from './archive';
export * from './browser';
export * from './full-portal';
export * from './ui';
export * from './world';
export * from './api';
export * from './pdf-text';
