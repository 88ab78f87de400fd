export * from './aid-lookups';
export * from './rows';
export * from './search';
