export * from './port';
export * from './sqlite-document-store';
export * from './contract';
