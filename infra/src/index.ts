export * from './event-store/port';
export * from './message-log/port';
export * from './aid-index/port';
export * from './documents/port';
