/**
 * How to start a worker thread on one of our modules: the compiled `.js` next to the caller, or,
 * when running from TypeScript sources (jest), the `.ts` compiled on the fly by @swc/core.
 * Null when neither is possible: callers then do the work on their own thread.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface WorkerScript {
  code: string;
  eval: boolean;
}

export function workerScript(dir: string, baseName: string): WorkerScript | null {
  const compiled = path.join(dir, `${baseName}.js`);
  if (fs.existsSync(compiled)) return { code: compiled, eval: false };
  const source = path.join(dir, `${baseName}.ts`);
  if (!fs.existsSync(source)) return null;
  let swc: string;
  try {
    swc = require.resolve('@swc/core');
  } catch {
    return null;
  }
  const code = `
const swc = require(${JSON.stringify(swc)});
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformFileSync(filename, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(${JSON.stringify(source)});`;
  return { code, eval: true };
}
