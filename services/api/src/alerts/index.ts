export * from './notifier';
export * from './variation-alerts';
