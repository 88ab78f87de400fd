import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scale-out/processes';
import { npmScripts, scriptEnv, scriptNodeFlags } from '../npm-scripts';
import { benchSuites, BULK_NODE_FLAGS, PORTAL_ENV } from './index';

const scripts = npmScripts();

describe('the portal environment the register suite measures in', () => {
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
  it.each(['start', 'start:sync', 'start:projector'])('are given by `npm run %s`', (name) => {
    for (const flag of BULK_NODE_FLAGS) expect(scriptNodeFlags(scripts[name]!)).toContain(flag);
  });

  it('are the ones the register suite measures the sync with, and not the API’s', () => {
    expect(benchSuites.find((suite) => suite.name === 'register')?.nodeFlags).toEqual(BULK_NODE_FLAGS);
    for (const flag of BULK_NODE_FLAGS) expect(scriptNodeFlags(scripts['start:api']!)).not.toContain(flag);
  });
});
