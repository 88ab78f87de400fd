export * from './archive-projections';
export * from './read-models';
