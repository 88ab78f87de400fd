export * from './port';
export * from './sqlite-message-log';
export * from './contract';
