export * from './port';
export * from './sqlite-event-store';
export * from './contract';
