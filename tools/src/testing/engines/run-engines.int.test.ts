import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeImages, runEngineSuites, SKIPPED_WITHOUT_DOCKER } from './run-engines';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

describe('npm run test:engines', () => {
  it('runs the suites on the images compose deploys, each pinned to a version', () => {
    const images = composeImages(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'));
    expect(Object.keys(images).sort()).toEqual(['elasticsearch', 'eventstore', 'kafka', 'mongodb']);
    for (const image of Object.values(images)) expect(image).toMatch(/:\d[\w.-]*$/);
  });

  it('without Docker says what it did not run and why, and fails nothing', async () => {
    const saved = Object.fromEntries(
      ['EVENTSTORE_URL', 'KAFKA_BROKERS', 'ELASTICSEARCH_URL', 'MONGODB_URI'].map((name) => [
        name,
        process.env[name],
      ]),
    );
    for (const name of Object.keys(saved)) delete process.env[name];
    const printed: string[] = [];
    try {
      const code = await runEngineSuites(
        (line) => printed.push(line),
        () => Promise.reject(new Error('Could not find a working container runtime strategy')),
      );
      expect(code).toBe(0);
    } finally {
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    }
    expect(printed[0]).toBe(
      'test:engines SKIPPED: no Docker engine is reachable (Could not find a working container runtime strategy).',
    );
    for (const line of SKIPPED_WITHOUT_DOCKER) expect(printed).toContain(`  - ${line}`);
  });
});
