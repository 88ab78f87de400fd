/**
 * The boundaries of ARCHITECTURE.md are lint rules (eslint.boundaries.js, run by `npm run lint`).
 * Each fixture in tools/lint-fixtures breaks one of them on purpose and says, in its first line, where
 * it pretends to live; linting it there must fail, and the same import where it is allowed must pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FIXTURES = path.join(ROOT, 'tools', 'lint-fixtures');

interface Fixture {
  name: string;
  code: string;
  lintAs: string;
}

function fixtures(): Fixture[] {
  return fs
    .readdirSync(FIXTURES)
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => {
      const code = fs.readFileSync(path.join(FIXTURES, name), 'utf8');
      const lintAs = /^\/\/ lint as: (\S+)/.exec(code)?.[1];
      if (!lintAs) throw new Error(`${name} does not say where to lint it ("// lint as: <path>")`);
      return { name, code, lintAs };
    });
}

let linter: ESLint | null = null;

async function restrictedImports(code: string, filePath: string): Promise<string[]> {
  // The repository's own flat config, loaded with require: jest's sandbox cannot run ESLint's dynamic import.
  const eslint = (linter ??= new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the config is CommonJS, loaded as such
    overrideConfig: require(path.join(ROOT, 'eslint.config.js')) as ESLint.Options['overrideConfig'],
  }));
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('architecture boundaries as lint rules', () => {
  const all = fixtures();

  it('has a fixture for every layer the rules guard', () => {
    const layers = new Set(all.map((fixture) => fixture.lintAs.split('/src/')[0]));
    expect([...layers].sort()).toEqual(
      [
        'domain',
        'read-models',
        'frontend',
        'infra',
        'services/api',
        'services/projector',
        'services/sync',
      ].sort(),
    );
  });

  it.each(fixtures().map((fixture) => [fixture.name, fixture]))(
    '%s fails the lint where it pretends to live',
    async (_name, fixture) => {
      const problems = await restrictedImports(fixture.code, fixture.lintAs);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/ARCHITECTURE\.md/);
    },
    30_000,
  );

  it.each([
    ['services/standalone/src/fixture.ts', "import { requestSync } from '@rna/api';"],
    ['tools/src/fixture.ts', "import { startSyncWorker } from '@rna/sync';"],
    ['services/api/src/fixture.ts', "import { openStores } from '@rna/infra/engines';"],
    ['services/sync/src/fixture.ts', "import { SYNC_RUNS } from '@rna/read-models';"],
    ['read-models/src/fixture.ts', "import type { DocumentStore } from '@rna/infra';"],
    ['frontend/src/fixture.ts', "import type { AidDto } from '@rna/domain';"],
  ])(
    'lets %s import what it composes (%s)',
    async (filePath, line) => {
      expect(await restrictedImports(`${line}\n`, filePath)).toEqual([]);
    },
    30_000,
  );
});

/**
 * ARCHITECTURE.md's layers, written out here rather than read from the rules: for each folder, the
 * workspaces it may import. Every other workspace must be refused there, so a rule that loses one of
 * its targets (or gains one) fails this test, not only the fixture above it.
 */
const WORKSPACES = ['domain', 'infra', 'read-models', 'api', 'sync', 'projector', 'standalone', 'tools'];
const MAY_IMPORT: Record<string, readonly string[]> = {
  'domain/src/x.ts': ['domain'],
  'infra/src/x.ts': ['domain', 'infra'],
  'read-models/src/x.ts': ['domain', 'infra', 'read-models'],
  'services/api/src/x.ts': ['domain', 'infra', 'read-models', 'api'],
  'services/sync/src/x.ts': ['domain', 'infra', 'read-models', 'sync'],
  'services/projector/src/x.ts': ['domain', 'infra', 'read-models', 'projector'],
  // the composition root of the embedded default: every service, never the tooling
  'services/standalone/src/x.ts': [
    'domain',
    'infra',
    'read-models',
    'api',
    'sync',
    'projector',
    'standalone',
  ],
  'frontend/src/x.tsx': ['domain'],
  'tools/src/x.ts': WORKSPACES,
};

describe('every layer against every workspace', () => {
  const pairs = Object.entries(MAY_IMPORT).flatMap(([file, allowed]) =>
    WORKSPACES.map((target) => [file, target, allowed.includes(target)] as const),
  );

  it.each(pairs)('%s importing @rna/%s: allowed %s', async (file, target, allowed) => {
    const problems = await restrictedImports(
      `import * as layer from '@rna/${target}';\nexport { layer };\n`,
      file,
    );
    if (allowed) expect(problems).toEqual([]);
    else expect(problems).toEqual([expect.stringMatching(/ARCHITECTURE\.md/)]);
  });
});
