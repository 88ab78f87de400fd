export * from './aids';
