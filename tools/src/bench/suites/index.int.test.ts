import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scale-out/processes';
import { benchSuites, BULK_NODE_FLAGS, PORTAL_ENV } from './index';

/** The variables a package.json script sets before `node`, each at the default the shell gives it. */
function scriptEnv(script: string): Record<string, string> {
  const beforeNode = script.slice(script.lastIndexOf('&&') + 2, script.search(/\bnode\s+--/));
  const env: Record<string, string> = {};
  for (const [, name, value] of beforeNode.matchAll(/(\w+)=\$\{\w+:-([^}]*)\}/g)) env[name!] = value!;
  return env;
}

/** The flags a package.json script gives `node`, each at the default the shell gives it. */
function scriptNodeFlags(script: string): string[] {
  const words = script.replace(/\$\{\w+:-([^}]*)\}/g, '$1').split(/\s+/);
  return words.slice(words.lastIndexOf('node') + 1).filter((word) => word.startsWith('--'));
}

describe('the portal environment the register suite measures in', () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };

  it.each(['start', 'start:api', 'start:sync', 'start:projector'])('is the one `npm run %s` sets', (name) => {
    expect(scriptEnv(scripts[name]!)).toEqual(PORTAL_ENV);
  });

  it('is the image’s, and the register suite runs in it', () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    for (const [name, value] of Object.entries(PORTAL_ENV))
      expect(dockerfile).toContain(`ENV ${name}=${value}`);
    expect(benchSuites.find((suite) => suite.name === 'register')?.env).toEqual(PORTAL_ENV);
  });
});

describe('the node flags of the processes that sync or project', () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };

  it.each(['start', 'start:sync', 'start:projector'])('are given by `npm run %s`', (name) => {
    for (const flag of BULK_NODE_FLAGS) expect(scriptNodeFlags(scripts[name]!)).toContain(flag);
  });

  it('are the ones the register suite measures the sync with, and not the API’s', () => {
    expect(benchSuites.find((suite) => suite.name === 'register')?.nodeFlags).toEqual(BULK_NODE_FLAGS);
    for (const flag of BULK_NODE_FLAGS) expect(scriptNodeFlags(scripts['start:api']!)).not.toContain(flag);
  });
});
