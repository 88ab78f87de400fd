export * from './port';
export * from './sqlite-aid-index';
export * from './contract';
