import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogueBreaches, readGlossaryLists } from '@rna/domain';
import catalogue from './it.json';

/** docs/glossary.md: its lists are the ones the catalogue is checked against. */
const glossary = readGlossaryLists(readFileSync(join(__dirname, '../../../docs/glossary.md'), 'utf8'));

describe('the Italian catalogue follows docs/glossary.md', () => {
  it('reads the glossary’s lists', () => {
    expect(glossary.english).toEqual(expect.arrayContaining(['alert', 'audit', 'sync', 'report', 'default']));
    expect(glossary.informal).toEqual(expect.arrayContaining(['inserisci', 'scegli', 'hai', 'puoi']));
    // no text is exempt: those the specification quotes in Title Case or English follow the style too
    expect(glossary.spec).toEqual([]);
  });

  it('has no English word, no “tu”, no Title Case and “de minimis” in lower case', () => {
    expect(catalogueBreaches(catalogue, glossary)).toEqual([]);
  });
});
