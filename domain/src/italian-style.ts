/**
 * The house style of the Italian texts (docs/glossary.md), as checks a test can run over the
 * catalogue, the e-mails and the report labels. The word lists are not here: they live in the
 * glossary, which `readGlossaryLists` reads, so the document and the checks cannot drift apart.
 */

/** The lists the glossary keeps between `<!-- lista:NAME -->` and `<!-- /lista -->` markers. */
export interface GlossaryLists {
  /** English words (or phrases) the Italian texts must not use, whole words, any case. */
  english: string[];
  /** Forms of the informal register ("tu"), whole words, any case. */
  informal: string[];
  /** Capitalised words or phrases allowed in the middle of a sentence (proper nouns, names of keys). */
  properNouns: string[];
  /** Texts the SPEC fixes verbatim: left out of every check. */
  spec: string[];
}

/** One breach of the style: which rule and the words that break it. */
export interface StyleBreach {
  rule: 'english' | 'informal' | 'titleCase' | 'deMinimis';
  found: string;
}

const LIST = /<!--\s*lista:([a-z-]+)\s*-->([\s\S]*?)<!--\s*\/lista\s*-->/g;
const LIST_NAMES: Record<string, keyof GlossaryLists> = {
  inglese: 'english',
  tu: 'informal',
  'nomi-propri': 'properNouns',
  spec: 'spec',
};

/**
 * The lists of the glossary: in each marked block, the first cell of every table row (header and
 * separator rows excepted), without the backticks around it.
 */
export function readGlossaryLists(markdown: string): GlossaryLists {
  const lists: GlossaryLists = { english: [], informal: [], properNouns: [], spec: [] };
  for (const [, name, body] of markdown.matchAll(LIST)) {
    const key = LIST_NAMES[name!];
    if (!key) throw new Error(`Unknown glossary list "${name}"`);
    const rows = body!.split('\n').filter((line) => line.trim().startsWith('|'));
    for (const row of rows.slice(2)) {
      const cell = row.split('|')[1]!.trim().replace(/^`|`$/g, '');
      if (cell) lists[key].push(cell);
    }
  }
  return lists;
}

const LETTER = '\\p{L}';
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wholeWord = (word: string, flags: string): RegExp =>
  new RegExp(`(?<!${LETTER})${escapeRegExp(word)}(?!${LETTER})`, flags);

/** The text without interpolations ({{name}}, {name}), markup and the SPEC's fixed texts. */
function plainText(text: string, lists: GlossaryLists): string {
  let plain = text.replace(/\{\{[^}]*\}\}|\{[^}]*\}|<[^>]*>/g, ' x ');
  for (const fixed of lists.spec) plain = plain.split(fixed).join(' x ');
  return plain;
}

/**
 * Whether `index` starts a sentence or a label: the text's start, or after . ! ? · « ( or a new
 * line. After a colon a sentence goes on in lower case.
 */
function startsSentence(text: string, index: number): boolean {
  const before = text.slice(0, index).trimEnd();
  return before === '' || /[.!?·«(\n—–-]$/.test(before) || /\bx$/.test(before);
}

/**
 * The informal register: a listed form, or a second-person future ("riceverai", "potrai"). A label
 * may open with a command in the imperative ("Salva", "Scegli file", "Riprova"): that is the
 * interface's convention for buttons, not an address to the reader; a label is a value of at most
 * three words with no sentence punctuation.
 */
function informalForms(text: string, lists: GlossaryLists): string[] {
  const found: string[] = [];
  const label = !/[.,:;?!]/.test(text) && [...text.matchAll(/\p{L}{2,}/gu)].length <= 3;
  for (const word of lists.informal) {
    for (const match of text.matchAll(wholeWord(word, 'giu'))) {
      if (label && match.index === text.search(/\S/)) continue;
      found.push(match[0]);
    }
  }
  for (const match of text.matchAll(/(?<!\p{L})\p{L}{2,}rai(?!\p{L})/gu)) found.push(match[0]);
  return found;
}

/**
 * Title Case: a word in capitals in the middle of a sentence that is not a listed proper noun (and
 * not an acronym such as PDF or RNA). "Errore Durante il Recupero Dati" has two.
 */
function titleCaseWords(text: string, lists: GlossaryLists): string[] {
  let masked = text;
  const byLength = [...lists.properNouns].sort((a, b) => b.length - a.length);
  for (const noun of byLength) masked = masked.replace(wholeWord(noun, 'gu'), (m) => '_'.repeat(m.length));
  const found: string[] = [];
  for (const match of masked.matchAll(/(?<![\p{L}\d'’._/@-])\p{Lu}\p{Ll}+(?![\p{L}\d._@/-])/gu)) {
    if (!startsSentence(masked, match.index)) found.push(match[0]);
  }
  return found;
}

/** "de minimis" in lower case, "De minimis" only to open a sentence or a label. */
function deMinimisBreaches(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?<!\p{L})de\s+minimis(?!\p{L})/giu)) {
    const ok = match[0] === 'de minimis' || (match[0] === 'De minimis' && startsSentence(text, match.index));
    if (!ok) found.push(match[0]);
  }
  return found;
}

/** Every breach of the glossary's style in one Italian text (a catalogue value, a mail, a label). */
export function styleBreaches(text: string, lists: GlossaryLists): StyleBreach[] {
  const plain = plainText(text, lists);
  const breaches: StyleBreach[] = [];
  for (const word of lists.english)
    for (const match of plain.matchAll(wholeWord(word, 'giu')))
      breaches.push({ rule: 'english', found: match[0] });
  for (const found of informalForms(plain, lists)) breaches.push({ rule: 'informal', found });
  for (const found of deMinimisBreaches(plain)) breaches.push({ rule: 'deMinimis', found });
  for (const found of titleCaseWords(plain, lists))
    if (!/^de$/i.test(found)) breaches.push({ rule: 'titleCase', found });
  return breaches;
}

/** Every string of a nested catalogue, keyed by its dotted path. */
export function catalogueEntries(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (!node) return []; // numbers and booleans have no entries either
  return Object.entries(node).flatMap(([key, value]) =>
    catalogueEntries(value, path ? `${path}.${key}` : key),
  );
}

/** The breaches of a whole catalogue, as "key: rule found" lines (empty when it follows the style). */
export function catalogueBreaches(catalogue: unknown, lists: GlossaryLists): string[] {
  return catalogueEntries(catalogue).flatMap(([key, value]) =>
    styleBreaches(value, lists).map((breach) => `${key}: ${breach.rule} ${breach.found}`),
  );
}
