export * from './projection';
export * from './all-projections';
