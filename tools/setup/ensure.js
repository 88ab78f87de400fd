#!/usr/bin/env node
// Sets up whatever a fresh clone is missing before `npm start`, `npm test` or `npm run bench`:
// dependencies (npm ci, native modules built from source), Debian packages the product
// drives (chromium for PDFs and browser tests, kcat for the Kafka contract suite), and the build.
// Only Node built-ins here: this runs before node_modules exists.
'use strict';
const { execSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const root = path.resolve(__dirname, '..', '..');
const args = new Set(process.argv.slice(2));
const forTest = args.has('--test');

function log(msg) {
  process.stdout.write(`[setup] ${msg}\n`);
}
function run(cmd, opts = {}) {
  log(cmd);
  execSync(cmd, { cwd: root, stdio: 'inherit', ...opts });
}
function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function ensureDependencies() {
  const lock = fs.readFileSync(path.join(root, 'package-lock.json'));
  const want = crypto.createHash('sha256').update(lock).digest('hex');
  const marker = path.join(root, 'node_modules', '.installed-lock-hash');
  const have = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').trim() : '';
  if (have !== want) {
    run('npm ci --no-audit --no-fund');
    fs.writeFileSync(marker, want);
  }
}

let aptUpdated = false;
function aptInstall(pkg) {
  if (process.getuid && process.getuid() !== 0) {
    log(`'${pkg}' is missing and this user is not root: install it with apt-get install ${pkg}`);
    return;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    run('apt-get update -qq', { env });
    aptUpdated = true;
  }
  run(`apt-get install -y -qq --no-install-recommends ${pkg}`, { env });
}

function ensureSystemPackages() {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) aptInstall('chromium');
  if (forTest && !has('kcat')) aptInstall('kcat');
}

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

function ensureBuild() {
  run('npx tsc -b');
  const fe = path.join(root, 'frontend');
  const built = path.join(fe, 'dist', 'index.html');
  const sources = Math.max(newestMtime(path.join(fe, 'src')), newestMtime(path.join(root, 'domain', 'src')));
  if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < sources) run('npm run -s -w frontend build');
}

try {
  ensureDependencies();
  ensureSystemPackages();
  ensureBuild();
} catch (error) {
  // The failing command already printed its own output; a stack trace here would only hide it.
  log(`setup failed: ${error && error.message ? error.message.split('\n')[0] : error}`);
  process.exit(typeof error.status === 'number' && error.status > 0 ? error.status : 1);
}
