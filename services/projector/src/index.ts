export * from './projection';
