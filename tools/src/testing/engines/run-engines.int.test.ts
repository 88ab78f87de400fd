import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeImages, NOT_RUN_EXIT_CODE, runEngineSuites, SKIPPED_WITHOUT_DOCKER } from './run-engines';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

describe('npm run test:engines', () => {
  it('runs the suites on the images compose deploys, each pinned to a version', () => {
    const images = composeImages(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'));
    expect(Object.keys(images).sort()).toEqual(['elasticsearch', 'eventstore', 'kafka', 'mongodb']);
    for (const image of Object.values(images)) expect(image).toMatch(/:\d[\w.-]*$/);
  });

  async function withoutDocker(optional: string | undefined) {
    const names = [
      'EVENTSTORE_URL',
      'KAFKA_BROKERS',
      'ELASTICSEARCH_URL',
      'MONGODB_URI',
      'TEST_ENGINES_OPTIONAL',
    ];
    const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
    for (const name of names) delete process.env[name];
    if (optional !== undefined) process.env.TEST_ENGINES_OPTIONAL = optional;
    const printed: string[] = [];
    try {
      const code = await runEngineSuites(
        (line) => printed.push(line),
        () => Promise.reject(new Error('Could not find a working container runtime strategy')),
      );
      return { code, printed };
    } finally {
      for (const name of names) delete process.env[name];
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    }
  }

  it('without Docker says what it did not run and why, and does not pass: nothing was tested', async () => {
    const { code, printed } = await withoutDocker(undefined);
    expect(code).toBe(NOT_RUN_EXIT_CODE);
    expect(code).not.toBe(0);
    expect(printed[0]).toBe(
      'test:engines SKIPPED: no Docker engine is reachable (Could not find a working container runtime strategy).',
    );
    for (const line of SKIPPED_WITHOUT_DOCKER) expect(printed).toContain(`  - ${line}`);
    expect(printed.at(-1)).toMatch(/^Exit code 3: nothing was tested/);
  });

  it('exits 0 without Docker only when told their absence is expected, still saying what it skipped', async () => {
    const { code, printed } = await withoutDocker('1');
    expect(code).toBe(0);
    for (const line of SKIPPED_WITHOUT_DOCKER) expect(printed).toContain(`  - ${line}`);
  });
});
