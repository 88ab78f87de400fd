import {
  catalogueBreaches,
  catalogueEntries,
  readGlossaryLists,
  styleBreaches,
  type GlossaryLists,
} from './italian-style';

const lists: GlossaryLists = {
  english: ['alert', 'audit', 'sync', 'report', 'download', 'default', 'login', 'bar chart'],
  informal: ['tuo', 'hai', 'puoi', 'inserisci', 'scegli', 'contatta', 'riprova', 'salva'],
  properNouns: ['Registro Nazionale Aiuti', 'Stato', 'Excel'],
  spec: ['Errore Durante il Recupero Dati'],
};
const rules = (text: string) => styleBreaches(text, lists).map((b) => `${b.rule} ${b.found}`);

describe('the glossary’s lists', () => {
  it('are the first cells of the table rows between the markers', () => {
    const markdown = [
      '<!-- lista:inglese -->',
      '| Parola | In italiano |',
      '| --- | --- |',
      '| `alert` | avviso |',
      '| `bar chart` | grafico a barre |',
      '<!-- /lista -->',
      '| `fuori` | non letto |',
      '<!-- lista:spec -->',
      '| Testo | Dove |',
      '| --- | --- |',
      '| `Sync completata` | SPEC §4 |',
      '<!-- /lista -->',
    ].join('\n');
    expect(readGlossaryLists(markdown)).toEqual({
      english: ['alert', 'bar chart'],
      informal: [],
      properNouns: [],
      spec: ['Sync completata'],
    });
  });

  it('read indented rows and rows without a closing bar, skip empty cells and lines that are no row', () => {
    const markdown = [
      '<!-- lista:tu -->',
      'Forme da non usare |',
      '  | Forma | Nota |',
      '  | --- | --- |',
      '  | `tuo` | possessivo |',
      '| `hai` | verbo',
      '|  | riga vuota |',
      '| `l`app` | un apice nel mezzo resta |',
      '<!-- /lista -->',
    ].join('\n');
    expect(readGlossaryLists(markdown).informal).toEqual(['tuo', 'hai', 'l`app']);
  });

  it('refuse a list the checks do not know', () => {
    expect(() => readGlossaryLists('<!-- lista:altro -->\n<!-- /lista -->')).toThrow(/altro/);
  });
});

describe('the style of an Italian text', () => {
  it('refuses the listed English words, whole words in any case', () => {
    expect(rules('Alert di variazione')).toEqual(['english Alert']);
    expect(rules('Torna al login')).toEqual(['english login']);
    expect(rules('Bar chart with 2 data series')).toContain('english Bar chart');
    // a word that merely contains a listed one is Italian
    expect(rules('Importo del resoconto predefinito')).toEqual([]);
  });

  it('refuses the informal register, and any second-person future', () => {
    expect(rules('Inserisci il tuo codice')).toEqual(['informal tuo', 'informal Inserisci']);
    expect(rules('Non hai i permessi')).toEqual(['informal hai']);
    expect(rules('Ora puoi accedere: riceverai una email')).toEqual(['informal puoi', 'informal riceverai']);
    expect(rules('Inserisca il suo codice: riceverà un’email')).toEqual([]);
  });

  it('lets a short command label open with the imperative, not a sentence', () => {
    expect(rules('Salva')).toEqual([]);
    expect(rules('Scegli file')).toEqual([]);
    expect(rules('Salva solo la colonna dei codici.')).toEqual(['informal Salva']);
    expect(rules('Errore interno, riprova')).toEqual(['informal riprova']);
    // three words are still a label, four are a sentence
    expect(rules('Salva la ricerca')).toEqual([]);
    expect(rules('Salva la ricerca corrente')).toEqual(['informal Salva']);
  });

  it('refuses Title Case, but not proper nouns, acronyms or a new sentence', () => {
    expect(rules('Errore Durante il recupero Dati')).toEqual(['titleCase Durante', 'titleCase Dati']);
    expect(rules('Aiuti di Stato nel Registro Nazionale Aiuti. Foglio Excel e PDF')).toEqual([]);
    expect(rules('Vai a «Imprese uniche» (Solo admin)')).toEqual([]);
    // a full stop earlier on does not make every later word open a sentence
    expect(rules('Fatto. Ora il Totale')).toEqual(['titleCase Totale']);
    // a word after a proper noun is still in the middle of the sentence
    expect(rules('Scarichi il foglio (Excel Completo)')).toEqual(['titleCase Completo']);
    // only the word «De» of «de minimis» is left to its own rule, not words that begin or end so
    expect(rules('Apra il Dettaglio della pratica Grande')).toEqual([
      'titleCase Dettaglio',
      'titleCase Grande',
    ]);
  });

  it('lets a proper noun stand wherever it appears, the longest listed form first', () => {
    expect(rules('Aiuti di Stato e altri aiuti di Stato')).toEqual([]);
    const nested = { ...lists, properNouns: ['Registro', 'Registro Nazionale Aiuti'] };
    expect(styleBreaches('Aiuti nel Registro Nazionale Aiuti', nested)).toEqual([]);
    // and the caller's list keeps its order
    expect(nested.properNouns).toEqual(['Registro', 'Registro Nazionale Aiuti']);
  });

  it('finds listed words with characters a pattern would read as operators', () => {
    const dotted = { ...lists, english: ['e.g.'] };
    expect(styleBreaches('Un codice (e.g. il suo)', dotted)).toEqual([{ rule: 'english', found: 'e.g.' }]);
  });

  it('wants “de minimis” in lower case, “De minimis” only to open a sentence', () => {
    expect(rules('Totale de minimis')).toEqual([]);
    expect(rules('De minimis residuo')).toEqual([]);
    expect(rules('Nota sul De Minimis')).toEqual(['deMinimis De Minimis', 'titleCase Minimis']);
    expect(rules('Totale De minimis')).toEqual(['deMinimis De minimis']);
    expect(rules('De Minimis residuo')).toEqual(['deMinimis De Minimis', 'titleCase Minimis']);
    // two spaces or a line break between the words are no proper spelling either
    expect(rules('Totale de  minimis')).toEqual(['deMinimis de  minimis']);
  });

  it('skips interpolations and the texts the SPEC fixes verbatim', () => {
    expect(rules('{{count}} Alert')).toEqual(['english Alert']);
    expect(rules('Ciao {{Report}} e {Audit}')).toEqual([]);
    expect(rules('Errore Durante il Recupero Dati')).toEqual([]);
    // markup of any length, with what its attributes say
    expect(rules('Prego <a href="/login">acceda</a> di nuovo')).toEqual([]);
    // an interpolation may end a name that goes on in capitals, the words after that are checked again
    expect(rules('Cliente: {{nome}} Srl')).toEqual([]);
    expect(rules('{{n}} aiuti per Regione')).toEqual(['titleCase Regione']);
    // so may a fixed text of the SPEC
    expect(rules('Appare Errore Durante il Recupero Dati Sempre')).toEqual([]);
  });
});

describe('a catalogue', () => {
  it('lists its texts by dotted path, leaving out what is not text', () => {
    expect(catalogueEntries({ a: { b: 'Uno', c: null, d: 2 }, e: 'Due' })).toEqual([
      ['a.b', 'Uno'],
      ['e', 'Due'],
    ]);
  });

  it('names each breach by the key of its text', () => {
    expect(catalogueBreaches({ a: { b: 'Scarica il Report' }, c: 'Tutto bene' }, lists)).toEqual([
      'a.b: english Report',
      'a.b: titleCase Report',
    ]);
  });
});
