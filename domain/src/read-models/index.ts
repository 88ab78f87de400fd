export * from './indexing';
export * from './archive';
export * from './indexes';
