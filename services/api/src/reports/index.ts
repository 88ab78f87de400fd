export * from './excel';
export * from './pdf-template';
export * from './report-input';
export * from './pdf-report';
