export * from './aid-index-projection';
export * from './archive-replay';
