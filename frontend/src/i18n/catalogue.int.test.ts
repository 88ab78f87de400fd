import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DE_MINIMIS_REGIMES,
  DE_MINIMIS_WINDOW_NOTE,
  ERROR_CATALOGUE,
  REGISTER_RECORD_REJECTION_REASONS,
} from '@rna/domain';
import i18n from 'i18next';
import catalogue from './it.json';

const SRC = join(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** A key, or a plural one (i18next picks `<key>_one` / `<key>_other` from the count). */
function has(key: string): boolean {
  return hasExactly(key) || (hasExactly(`${key}_one`) && hasExactly(`${key}_other`));
}

function hasExactly(key: string, object = false): boolean {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return object ? !!node && typeof node === 'object' : typeof node === 'string';
}

describe('Italian catalogue', () => {
  const files = sourceFiles(SRC);

  it('has every key the sources pass to t()', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // a key read with returnObjects (chart.lang, Highcharts' texts) names a section, not a text
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'(\s*,\s*\{\s*returnObjects: true)?/g)) {
        const found = match[2] ? hasExactly(match[1]!, true) : has(match[1]!);
        if (!found) missing.push(`${match[1]} (${file.slice(SRC.length + 1)})`);
      }
    }
    expect(files.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('has the message keys the screens store as success messages or rules return, and the sync labels', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/'((?:clients|sync|validation|groups|headroom)\.[a-zA-Z]+)'/g)) {
        // file names such as 'clients.xlsx' look like keys but are not
        if (!/\.(xlsx|pdf)$/.test(match[1]!) && !has(match[1]!)) missing.push(match[1]!);
      }
    }
    for (const scope of ['LAST_YEAR', 'LAST_3_YEARS', 'ALL', 'CUSTOM'])
      if (!has(`sync.scope.${scope}`)) missing.push(scope);
    for (const status of ['RUNNING', 'SUCCESS', 'ERROR'])
      if (!has(`sync.runStatus.${status}`)) missing.push(status);
    for (const reason of REGISTER_RECORD_REJECTION_REASONS)
      if (!has(`sync.rejectionReason.${reason}`)) missing.push(reason);
    for (const regime of DE_MINIMIS_REGIMES)
      if (!has(`headroom.regime.${regime}`)) missing.push(`headroom.regime.${regime}`);
    expect(missing).toEqual([]);
  });

  it('has a text for every error code (errors.<code>)', () => {
    const missing = Object.keys(ERROR_CATALOGUE).filter((code) => !has(`errors.${code}`));
    expect(missing).toEqual([]);
  });

  it('answers in Italian whatever the browser language', async () => {
    await i18n.changeLanguage('en-US');
    expect(i18n.t('login.submit')).toBe('Accedi');
    await i18n.changeLanguage('de');
    expect(i18n.t('errors.T002')).toBe('Il termine di ricerca deve avere almeno 11 caratteri');
  });
});

describe('how de minimis is counted', () => {
  it('is told on screen in the very words of the reports: three rolling years, one text', () => {
    expect(catalogue.documents.note).toBe(DE_MINIMIS_WINDOW_NOTE);
    const all = JSON.stringify(catalogue);
    expect(all).not.toMatch(/anno solare/);
  });
});
