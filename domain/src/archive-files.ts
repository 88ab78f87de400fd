/** Register archive files: names, ordering, sync scopes. */
export type SyncScope = 'LAST_YEAR' | 'LAST_3_YEARS' | 'ALL' | 'CUSTOM';
