export * from './excel';
export * from './pdf-template';
export * from './report-input';
