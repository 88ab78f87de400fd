export * from './port';
export * from './chromium';
