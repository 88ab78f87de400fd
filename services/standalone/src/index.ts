export * from './portal';
export * from './rebuild-projections';
export * from './projections';
