/**
 * No module imports itself back through others, type imports included: in a circle no module can be
 * read (or moved to another workspace) without all the others, and at run time one of them sees the
 * others half loaded. The domain had one (events.ts took its payload types from quotas.ts,
 * bulk-searches.ts and register-records.ts, which import events.ts); this keeps every workspace free
 * of them, and names the circle when one comes back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { workspaces } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  workspaces: string[];
};

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(file, found);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(file);
  }
  return found;
}

/** The source file a relative specifier names, or null (a package, a stylesheet, an image…). */
function resolveRelative(from: string, specifier: string, files: Set<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return candidates.find((candidate) => files.has(candidate)) ?? null;
}

/** Each file's imports (`import`, `import type`, `export … from`, `import()`) among the files of `dir`. */
function importGraph(dir: string): Map<string, string[]> {
  const files = sourceFiles(dir);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files.sort()) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => resolveRelative(file, imported.fileName, known))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** The strongly connected components of the graph that hold a circle (Tarjan). */
function circularGroups(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) groups.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return groups;
}

/** A shortest circle through the group's first file, as `a.ts → b.ts → a.ts`. */
function shortestCircle(graph: Map<string, string[]>, group: string[], dir: string): string {
  const members = new Set(group);
  const start = group[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  let last: string | undefined;
  while (queue.length > 0 && last === undefined) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        last = file;
        break;
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  const circle = [start];
  for (let file = last!; file !== start; file = cameFrom.get(file)!) circle.unshift(file);
  circle.unshift(start);
  return circle.map((file) => path.relative(dir, file)).join(' → ');
}

/** Each circle of imports in `dir`, one line per group of files caught in one. */
function importCycles(dir: string): string[] {
  const graph = importGraph(dir);
  return circularGroups(graph).map((group) => {
    const others =
      group.length > 2 ? ` (with ${group.map((file) => path.relative(dir, file)).join(', ')})` : '';
    return `${shortestCircle(graph, group, dir)}${others}`;
  });
}

describe('import cycles', () => {
  it('names a circle, type imports and re-exports included', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
    try {
      const write = (name: string, code: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), code);
      };
      write('events.ts', "import type { QuotaState } from './quotas';\nexport type E = { s: QuotaState };\n");
      write('quotas.ts', "import type { E } from './events';\nexport interface QuotaState { e?: E }\n");
      write('leaf.ts', "import type { E } from './events';\nexport * from './dates';\n");
      write('dates.ts', 'export const today = 1;\n');
      write('sub/index.ts', "export * from '../loop';\n");
      write('loop.ts', "import './sub';\nimport styles from './x.css';\nexport default styles;\n");
      expect(importCycles(dir).sort()).toEqual([
        'events.ts → quotas.ts → events.ts',
        'loop.ts → sub/index.ts → loop.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(workspaces)('%s has no circle of imports', (workspace) => {
    expect(importCycles(path.join(ROOT, workspace, 'src'))).toEqual([]);
  });
});
