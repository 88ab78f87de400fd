// The tests Stryker runs against each mutant (npm run test:mutation): the back end's unit and
// integration tests of the code it mutates, in one flat project (Stryker's jest runner wraps the
// test environment to learn which test covers which mutant, which it cannot do across projects).
const root = require('../../jest.config.js');
const backEnd = root.projects.find((project) => project.displayName === 'back-end');

// MUTATION_SCOPE=domain: the domain's own tests only (a run over domain/ alone needs no others).
const domainOnly = process.env.MUTATION_SCOPE === 'domain';

module.exports = {
  ...backEnd,
  displayName: undefined,
  testTimeout: root.testTimeout,
  rootDir: require('node:path').resolve(__dirname, '../..'),
  roots: ['<rootDir>/domain', '<rootDir>/infra', '<rootDir>/services/api'],
  testMatch: domainOnly
    ? ['<rootDir>/domain/src/**/*.unit.test.ts']
    : [
        '<rootDir>/domain/src/**/*.unit.test.ts',
        '<rootDir>/infra/src/leases/*.int.test.ts',
        '<rootDir>/infra/src/message-log/kafka-batches.unit.test.ts',
        '<rootDir>/services/api/src/auth/*.int.test.ts',
        '<rootDir>/services/api/src/http/authorization.int.test.ts',
        '<rootDir>/services/api/src/http/write-budget.int.test.ts',
        '<rootDir>/services/api/src/bulk-searches/bulk-searches-api.int.test.ts',
        '<rootDir>/services/api/src/bulk-searches/commands.int.test.ts',
      ],
};
