export * from './event-store/port';
export * from './message-log/port';
export * from './aid-index/port';
export * from './documents/port';
export * from './blobs/port';
export { acquireDataDirLock, DataDirLockedError } from './embedded';
export { FencedError, type Fence } from './fencing';
export * from './packed-texts/packed-texts';
