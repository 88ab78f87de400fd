/** Ricerca massiva (bulk search): routes, the job runner and its result files. */
export * from './routes';
export * from './runner';
export { bulkBlobName } from './commands';
