export * from './portal';
export * from './rebuild-projections';
