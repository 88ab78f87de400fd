export * from './rows';
export * from './search';
