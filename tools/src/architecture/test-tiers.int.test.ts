/**
 * Every test file says its tier in its name, so that `npm run test:unit` is the fast pure feedback
 * loop and a slow test cannot hide among the unit tests: `*.unit.test.ts` (pure, no I/O),
 * `*.int.test.ts` (real stores, servers, Chromium, files), `*.e2e.test.ts` (processes, browser).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { workspaces } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  workspaces: string[];
};

function testFiles(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) testFiles(file, found);
    else if (/\.test\.tsx?$/.test(entry.name)) found.push(path.relative(ROOT, file));
  }
  return found;
}

describe('test tiers', () => {
  const all = [...new Set(workspaces.flatMap((workspace) => testFiles(path.join(ROOT, workspace, 'src'))))];

  it('names the tier of every test file', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((file) => !/\.(unit|int|e2e)\.test\.tsx?$/.test(file))).toEqual([]);
  });

  it('keeps I/O out of the unit tier', () => {
    const io = /from 'node:(fs|fs\/promises|child_process|http|net)'|openTemporaryStores|openStores\(|supertest|playwright-core/;
    const impure = all.filter((file) => file.includes('.unit.test.') && io.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(impure).toEqual([]);
  }); // prettier-ignore
});
