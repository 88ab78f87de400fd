export * from './open-stores';
