export * from './port';
export * from './file-names';
export * from './listing';
export * from './http-client';
export * from './aid-parser';
export * from './unzipped-xml';
export { describeRegisterContract, type RegisterHarness } from './contract';
export * from './archive';
export { registerXmlOf } from './register-xml';
