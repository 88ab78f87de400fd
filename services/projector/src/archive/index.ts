export * from './archive-projections';
