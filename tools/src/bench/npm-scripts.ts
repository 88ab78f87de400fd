/**
 * The root package.json's npm scripts, read as the shell runs them: what each one sets before `node`
 * and the flags it gives `node`, every `${NAME:-default}` at its default. The bench's tests check that
 * it measures the processes with the settings an operator's `npm run` gives them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../scale-out/processes';

export function npmScripts(): Record<string, string> {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return manifest.scripts;
}

/** The variables a script sets before `node` with a default (`NAME=${NAME:-default}`), at that default. */
export function scriptEnv(script: string): Record<string, string> {
  const beforeNode = script.slice(script.lastIndexOf('&&') + 2, script.search(/\bnode\s+--/));
  const env: Record<string, string> = {};
  for (const [, name, value] of beforeNode.matchAll(/(\w+)=\$\{\w+:-([^}]*)\}/g)) env[name!] = value!;
  return env;
}

/** The flags a script gives `node`, each at the default the shell gives it. */
export function scriptNodeFlags(script: string): string[] {
  const words = script.replace(/\$\{\w+:-([^}]*)\}/g, '$1').split(/\s+/);
  return words.slice(words.lastIndexOf('node') + 1).filter((word) => word.startsWith('--'));
}
