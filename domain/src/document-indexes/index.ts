export * from './indexes';
