export * from './handlers';
export * from './routes';
