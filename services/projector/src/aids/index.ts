export * from './aid-index-projection';
export * from './archive-replay';
export * from './replay-dead-letters';
