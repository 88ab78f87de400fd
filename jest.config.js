// One jest run for the whole repository: back end (node) and front end (jsdom) projects.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const workspaceModules = {
  '^@rna/domain$': '<rootDir>/domain/src/index.ts',
  '^@rna/domain/(.*)$': '<rootDir>/domain/src/$1',
  '^@rna/infra$': '<rootDir>/infra/src/index.ts',
  '^@rna/infra/(.*)$': '<rootDir>/infra/src/$1',
  '^@rna/read-models$': '<rootDir>/read-models/src/index.ts',
  '^@rna/read-models/(.*)$': '<rootDir>/read-models/src/$1',
  '^@rna/api$': '<rootDir>/services/api/src/index.ts',
  '^@rna/api/(.*)$': '<rootDir>/services/api/src/$1',
  '^@rna/sync$': '<rootDir>/services/sync/src/index.ts',
  '^@rna/sync/(.*)$': '<rootDir>/services/sync/src/$1',
  '^@rna/projector$': '<rootDir>/services/projector/src/index.ts',
  '^@rna/projector/(.*)$': '<rootDir>/services/projector/src/$1',
  '^@rna/standalone$': '<rootDir>/services/standalone/src/index.ts',
  '^@rna/standalone/(.*)$': '<rootDir>/services/standalone/src/$1',
  '^@rna/tools/(.*)$': '<rootDir>/tools/src/$1',
};
const common = {
  rootDir: __dirname,
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: workspaceModules,
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Every test file runs with the clock a year ahead: see the file for why.
  setupFiles: ['<rootDir>/tools/setup/jest-clock-horizon.js'],
};
module.exports = {
  // Two workers even on two cores: the slowest suites (Kafka mock, child processes) mostly wait.
  maxWorkers: 2,
  // A generous deadline per test instead of jest's 5 s: the suite must pass with both cores busy (a
  // bench or a second build beside it), where an integration test that takes 1.5 s idle takes 5.
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/tools/setup/summary-reporter.js'],
  projects: [
    {
      ...common,
      displayName: 'back-end',
      testEnvironment: 'node',
      roots: [
        '<rootDir>/domain',
        '<rootDir>/infra',
        '<rootDir>/read-models',
        '<rootDir>/services',
        '<rootDir>/tools',
      ],
      testMatch: ['**/src/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'front-end',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/frontend'],
      testMatch: ['**/src/**/*.test.ts?(x)'],
      moduleNameMapper: { ...workspaceModules, '\\.(css|svg|png|jpg)$': 'identity-obj-proxy' },
      setupFilesAfterEnv: ['<rootDir>/frontend/src/test/setup.ts'],
    },
  ],
};
