export * from './audit';
