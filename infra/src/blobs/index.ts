export * from './port';
export * from './file-blob-store';
export * from './contract';
export * from './gridfs-blob-store';
