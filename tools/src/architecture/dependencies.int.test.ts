/**
 * Every package a workspace imports is declared in its own package.json: a workspace that leans on
 * what another one (or the root) happens to install breaks when it is built, deployed or moved alone.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const rootPackage = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  workspaces: string[];
};
const BUILTINS = new Set(builtinModules);
const IMPORTS = [
  /^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
  /\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function sourceFiles(dir: string, skip: (file: string) => boolean, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const file = path.join(dir, entry.name);
    if (skip(file)) continue;
    if (entry.isDirectory()) sourceFiles(file, skip, found);
    else if (/\.(ts|tsx)$/.test(entry.name)) found.push(file);
  }
  return found;
}

function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || BUILTINS.has(specifier)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

describe('declared dependencies', () => {
  it.each(rootPackage.workspaces)('%s declares every package it imports', (workspace) => {
    const dir = path.join(ROOT, workspace);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | string
    >;
    const declared = new Set(
      ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((key) =>
        Object.keys((manifest[key] as Record<string, string> | undefined) ?? {}),
      ),
    );
    // a workspace nested in another one's src (none is, today) is checked on its own
    const nested = rootPackage.workspaces
      .filter((other) => other !== workspace && other.startsWith(`${workspace}/`))
      .map((other) => path.join(ROOT, other));
    const undeclared = new Map<string, string>();
    for (const file of sourceFiles(path.join(dir, 'src'), (f) => nested.some((n) => f.startsWith(n)))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const pattern of IMPORTS) {
        for (const match of text.matchAll(pattern)) {
          const name = packageOf(match[1]!);
          if (name && name !== manifest.name && !declared.has(name) && !undeclared.has(name))
            undeclared.set(name, path.relative(ROOT, file));
        }
      }
    }
    expect(Object.fromEntries(undeclared)).toEqual({});
  });
});
