export * from './indexing';
export * from './archive';
