export * from './aid-index-projection';
