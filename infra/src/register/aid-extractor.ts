/**
 * The synchronous core of the register parser: bytes in, AidRecords out. It has no I/O so that
 * it runs the same inline or in a worker thread (see aid-parser.ts). Hot path: one event per tag,
 * so element names are resolved once per (context, name) and only wanted text is collected.
 * Every record is checked like user input (registerRecordValidator) before it is handed out: a
 * rejected one is counted and listed in the report, never published.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import {
  MAX_LISTED_REJECTIONS,
  registerRecordValidator,
  type AidRecord,
  type RegisterRecordCheck,
  type RegisterRecordRejection,
} from '@rna/domain';

/** Concession (AIUTO) fields the product keeps, element name → record field. */
const CONCESSION_FIELDS = {
  CAR: 'car',
  TITOLO_MISURA: 'titoloMisura',
  DES_TIPO_MISURA: 'desTipoMisura',
  SOGGETTO_CONCEDENTE: 'soggettoConcedente',
  COR: 'cor',
  TITOLO_PROGETTO: 'titoloProgetto',
  DATA_CONCESSIONE: 'dataConcessione',
  CUP: 'cup',
  DENOMINAZIONE_BENEFICIARIO: 'denominazioneBeneficiario',
  CODICE_FISCALE_BENEFICIARIO: 'codiceFiscaleBeneficiario',
  DES_TIPO_BENEFICIARIO: 'desTipoBeneficiario',
  REGIONE_BENEFICIARIO: 'regioneBeneficiario',
} as const;
/** Elements of AIUTO the product ignores; listed so that truncated names resolve unambiguously. */
const OTHER_CONCESSION_ELEMENTS = [
  'COD_CE_MISURA',
  'BASE_GIURIDICA_NAZIONALE',
  'LINK_TESTO_INTEGRALE_MISURA',
  'IDENTIFICATIVO_UFFICIO',
  'DESCRIZIONE_PROGETTO',
  'LINK_TRASPARENZA_NAZIONALE',
  'ATTO_CONCESSIONE',
  'LINK_ATTO_CONCESSIONE',
  'IDENTIFICATIVO_MISURA_ATTUATIVA',
  'MISURA_ATTUATIVA_ENTE_COMPETENTE',
  'MISURA_ATTUATIVA_TITOLO',
  'MISURA_ATTUATIVA_BASE_GIURIDICA_NAZIONALE',
  'COMPONENTI_AIUTO',
];
const COMPONENT_FIELDS = {
  ID_COMPONENTE_AIUTO: 'idComponenteAiuto',
  COD_PROCEDIMENTO: 'codProcedimento',
  DES_PROCEDIMENTO: 'desProcedimento',
  COD_REGOLAMENTO: 'codRegolamento',
  DES_REGOLAMENTO: 'desRegolamento',
  COD_OBIETTIVO: 'codObiettivo',
  DES_OBIETTIVO: 'desObiettivo',
  SETTORE_ATTIVITA: 'settoreAttivita',
} as const;
const OTHER_COMPONENT_ELEMENTS = ['SOGGETTO_INTERMEDIARIO', 'ENTITA_DELEGATA', 'STRUMENTI_AIUTO'];
const INSTRUMENT_ELEMENTS = ['COD_STRUMENTO', 'DES_STRUMENTO', 'ELEMENTO_DI_AIUTO', 'IMPORTO_NOMINALE'];

const CONTAINERS = new Set(['LISTA_AIUTI', 'COMPONENTI_AIUTO', 'STRUMENTI_AIUTO']);

type ConcessionField = (typeof CONCESSION_FIELDS)[keyof typeof CONCESSION_FIELDS];
type ComponentField = (typeof COMPONENT_FIELDS)[keyof typeof COMPONENT_FIELDS];
type Context = 'ROOT' | 'AIUTO' | 'COMPONENTE_AIUTO' | 'STRUMENTO_AIUTO';

const KNOWN_CHILDREN: Record<Context, readonly string[]> = {
  ROOT: ['LISTA_AIUTI', 'AIUTO'],
  AIUTO: [...Object.keys(CONCESSION_FIELDS), ...OTHER_CONCESSION_ELEMENTS, 'COMPONENTE_AIUTO'],
  COMPONENTE_AIUTO: [...Object.keys(COMPONENT_FIELDS), ...OTHER_COMPONENT_ELEMENTS, 'STRUMENTO_AIUTO'],
  STRUMENTO_AIUTO: INSTRUMENT_ELEMENTS,
};

/** Where the text of a leaf element goes; null = element the product ignores (its text is not kept). */
type Target =
  | { kind: 'concession'; field: ConcessionField }
  | { kind: 'component'; field: ComponentField }
  | { kind: 'aidElement' }
  | { kind: 'nominal' }
  | null;

function targetOf(context: Context, name: string): Target {
  if (context === 'AIUTO' && name in CONCESSION_FIELDS) {
    return { kind: 'concession', field: CONCESSION_FIELDS[name as keyof typeof CONCESSION_FIELDS] };
  }
  if (context === 'COMPONENTE_AIUTO' && name in COMPONENT_FIELDS) {
    return { kind: 'component', field: COMPONENT_FIELDS[name as keyof typeof COMPONENT_FIELDS] };
  }
  if (context === 'STRUMENTO_AIUTO' && name === 'ELEMENTO_DI_AIUTO') return { kind: 'aidElement' };
  if (context === 'STRUMENTO_AIUTO' && name === 'IMPORTO_NOMINALE') return { kind: 'nominal' };
  return null;
}

/**
 * Converts a register decimal ("10000.00", "12,5", "-3") to integer cents without float drift.
 * Empty text is 0 (the register omits amounts it does not know); any other text that is not a
 * number is NaN, which the record check rejects, instead of an aid of 0 €.
 */
export function decimalToCents(text: string): number {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return 0;
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return Number.NaN;
  const sign = match[1] === '-' ? -1 : 1;
  const whole = Number(match[2] || '0');
  const fraction = (match[3] ?? '').padEnd(3, '0');
  // Round half up on the third decimal.
  const cents = Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return sign * (whole * 100 + cents);
}

/**
 * A component's amount: the sum of its instruments, except that the first instrument amount that is
 * negative or not a number stands for the whole component, so that the record check sees it and
 * rejects the record instead of a sum in which a positive instrument hides it.
 */
function addInstrument(sum: number, part: number): number {
  if (!(sum >= 0)) return sum;
  if (!(part >= 0)) return part;
  return sum + part;
}

// The control characters that make some register files ill-formed: U+0000–U+001F except tab, newline
// and carriage return. In UTF-8 they are single bytes that never occur inside a multi-byte sequence,
// so removing them from the decoded text removes exactly those bytes.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/g;

/**
 * The text without its control characters, and how many there were: one regular-expression scan,
 * which gives back the text itself when it is clean (the usual case).
 */
export function removeControlCharacters(text: string): { text: string; removed: number } {
  let removed = 0;
  const cleaned = text.replace(CONTROL_CHARACTERS, () => {
    removed += 1;
    return '';
  });
  return { text: cleaned, removed };
}

/**
 * Bytes decoded, cleaned and parsed at a time, whatever the size of a write. A string over V8's
 * 128 KB object limit is allocated apart, in a mapping of its own, and each chunk made several
 * (the decoded text, the cleaned text): decoding and the control-character scan of 256 KB
 * chunks took 36 % of the extraction's CPU in a profile, 11 % in slices of 32 KB, whose text stays
 * under the limit even when every character takes two bytes.
 */
export const DECODE_SLICE_BYTES = 32 * 1024;

/** A file that is not well-formed XML even after cleaning: the import of that file fails. */
export class RegisterFileFormatError extends Error {
  constructor(
    message: string,
    public readonly line: number | null,
  ) {
    super(message);
    this.name = 'RegisterFileFormatError';
  }
}

export interface ExtractorReport {
  /** records published: checked and kept */
  records: number;
  /** records the check rejected (never published) */
  recordsRejected: number;
  /** the first MAX_LISTED_REJECTIONS of them, in file order */
  rejected: RegisterRecordRejection[];
  /** kept records with a text cut to the cap */
  recordsCapped: number;
  controlBytesRemoved: number;
  /** Truncated element names met, e.g. "IMPORTO_NOMIN→IMPORTO_NOMINALE". */
  truncatedTags: string[];
  xmlBytes: number;
}

/** An element name as a file writes it (`raw`), what it stands for, and where its text goes. */
interface ElementName {
  raw: string;
  name: string;
  target: Target;
}

/**
 * The element names met in one context, found again by comparing the raw name with them, starting
 * after the last one found: a file writes a context's elements in the same order every time, so the
 * first comparison usually finds it (not counted). A Map hashed each name, a new string at every tag: the
 * look-ups were a tenth of the parser's thread in a profile, the comparisons half that. Past the
 * bound, names are resolved each time: slower for a file of made-up names, never wrong.
 */
class MetNames {
  private readonly met: ElementName[] = [];
  private next = 0;

  find(raw: string): ElementName | undefined {
    const count = this.met.length;
    let i = this.next;
    for (let tried = 0; tried < count; tried++) {
      const element = this.met[i]!;
      i = i + 1 === count ? 0 : i + 1;
      if (element.raw === raw) {
        this.next = i;
        return element;
      }
    }
    return undefined;
  }

  /** A name met for the first time; beyond a bound (a file of made-up names) it is resolved each time. */
  add(element: ElementName): void {
    if (this.met.length < MAX_MET_NAMES) this.met.push(element);
  }
}

/** Names kept per context: the register's have fewer than 30 elements each. */
const MAX_MET_NAMES = 64;

function perContext(): Record<Context, MetNames> {
  return {
    ROOT: new MetNames(),
    AIUTO: new MetNames(),
    COMPONENTE_AIUTO: new MetNames(),
    STRUMENTO_AIUTO: new MetNames(),
  };
}

function emptyConcession(): Record<ConcessionField, string> {
  return {
    car: '',
    titoloMisura: '',
    desTipoMisura: '',
    soggettoConcedente: '',
    cor: '',
    titoloProgetto: '',
    dataConcessione: '',
    cup: '',
    denominazioneBeneficiario: '',
    codiceFiscaleBeneficiario: '',
    desTipoBeneficiario: '',
    regioneBeneficiario: '',
  };
}
function emptyComponent(): Record<ComponentField, string> {
  return {
    idComponenteAiuto: '',
    codProcedimento: '',
    desProcedimento: '',
    codRegolamento: '',
    desRegolamento: '',
    codObiettivo: '',
    desObiettivo: '',
    settoreAttivita: '',
  };
}

/**
 * Feed it bytes with write(); finished records pile up until take(). The first XML error is
 * thrown (as RegisterFileFormatError) by the write() or end() that met it.
 */
export class AidExtractor {
  private readonly parser = new SaxesParser({ xmlns: false, position: true });
  // TextDecoder rather than StringDecoder: the same text (a character cut between chunks waits for
  // the next one, a broken sequence becomes U+FFFD) in half the time on files of the register's layout.
  private readonly decoder = new TextDecoder('utf-8');
  private readonly truncated = new Set<string>();
  /** Per context, the element names met: the same few dozen repeat millions of times. */
  private readonly names = perContext();
  private readonly contexts: Context[] = ['ROOT'];
  private pending: AidRecord[] = [];
  private failure: RegisterFileFormatError | null = null;
  private records = 0;
  private recordsRejected = 0;
  private readonly rejected: RegisterRecordRejection[] = [];
  private recordsCapped = 0;
  private readonly check: (record: AidRecord) => RegisterRecordCheck;
  private xmlBytes = 0;
  private controlBytesRemoved = 0;

  private concession = emptyConcession();
  private component = emptyComponent();
  private aidElementCents = 0;
  private nominalCents = 0;
  /** Element whose text is being collected (leaf of a known container), and where that text goes. */
  private field: string | null = null;
  private target: Target = null;
  private text = '';

  /** `now`: the sync's clock, which bounds the plausible grant dates. */
  constructor(
    private readonly sourceFile: string,
    private readonly importId: string,
    now: Date | number,
  ) {
    this.check = registerRecordValidator(now);
    const parser = this.parser;
    parser.on('opentag', (tag) => this.openTag(tag));
    parser.on('text', (value) => {
      if (this.target !== null) this.text += value;
    });
    parser.on('cdata', (value) => {
      if (this.target !== null) this.text += value;
    });
    parser.on('closetag', (tag) => this.closeTag(tag));
    parser.on('error', (error) => {
      // saxes keeps going after an error; the first one decides the file's fate.
      this.failure ??= new RegisterFileFormatError(error.message, parser.line);
    });
  }

  write(chunk: Uint8Array): void {
    this.xmlBytes += chunk.length;
    for (let start = 0; start < chunk.length; start += DECODE_SLICE_BYTES) {
      const slice = chunk.subarray(start, start + DECODE_SLICE_BYTES);
      const { text, removed } = removeControlCharacters(this.decoder.decode(slice, { stream: true }));
      this.controlBytesRemoved += removed;
      this.parser.write(text);
      if (this.failure) throw this.failure;
    }
  }

  end(): ExtractorReport {
    this.parser.write(this.decoder.decode()).close();
    if (this.failure) throw this.failure;
    return {
      records: this.records,
      recordsRejected: this.recordsRejected,
      rejected: [...this.rejected],
      recordsCapped: this.recordsCapped,
      controlBytesRemoved: this.controlBytesRemoved,
      truncatedTags: [...this.truncated].sort(),
      xmlBytes: this.xmlBytes,
    };
  }

  /** Up to `limit` of the records finished and not taken yet, oldest first. */
  take(limit: number): AidRecord[] {
    if (this.pending.length <= limit) {
      const out = this.pending;
      this.pending = [];
      return out;
    }
    return this.pending.splice(0, limit);
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  private context(): Context {
    return this.contexts[this.contexts.length - 1] ?? 'ROOT';
  }

  /** The element `raw` names in the current context: its resolved name and where its text goes. */
  private element(raw: string): ElementName {
    const context = this.context();
    const names = this.names[context];
    let element = names.find(raw);
    if (element === undefined) {
      const name = this.resolveUncached(context, raw);
      element = { raw, name, target: targetOf(context, name) };
      names.add(element);
    }
    return element;
  }

  private resolveUncached(context: Context, raw: string): string {
    const colon = raw.indexOf(':');
    const name = colon >= 0 ? raw.slice(colon + 1) : raw;
    const known = KNOWN_CHILDREN[context];
    if (known.includes(name)) return name;
    const candidates = known.filter((k) => k.startsWith(name));
    if (candidates.length === 1) {
      const full = candidates[0] as string;
      this.truncated.add(`${name}→${full}`);
      return full;
    }
    return name;
  }

  private openTag(tag: SaxesTagPlain): void {
    const element = this.element(tag.name);
    const name = element.name;
    if (name === 'AIUTO') {
      this.contexts.push('AIUTO');
      this.concession = emptyConcession();
    } else if (name === 'COMPONENTE_AIUTO') {
      this.contexts.push('COMPONENTE_AIUTO');
      this.component = emptyComponent();
      this.aidElementCents = 0;
      this.nominalCents = 0;
    } else if (name === 'STRUMENTO_AIUTO') {
      this.contexts.push('STRUMENTO_AIUTO');
    } else if (!CONTAINERS.has(name)) {
      this.field = name;
      this.target = element.target;
      this.text = '';
    }
  }

  private closeTag(tag: SaxesTagPlain): void {
    if (this.field !== null) {
      const target = this.target;
      if (target !== null) {
        const value = this.text.trim();
        if (target.kind === 'concession') this.concession[target.field] = value;
        else if (target.kind === 'component') this.component[target.field] = value;
        else if (target.kind === 'aidElement')
          this.aidElementCents = addInstrument(this.aidElementCents, decimalToCents(value));
        else this.nominalCents = addInstrument(this.nominalCents, decimalToCents(value));
      }
      this.field = null;
      this.target = null;
      this.text = '';
      return;
    }
    const context = this.context();
    const name = this.element(tag.name).name;
    if (name === 'COMPONENTE_AIUTO' && context === 'COMPONENTE_AIUTO') {
      this.contexts.pop();
      this.keep(this.check(this.record()));
    } else if (name === context) {
      this.contexts.pop();
    }
  }

  private keep(checked: RegisterRecordCheck): void {
    if (checked.ok) {
      this.pending.push(checked.record);
      this.records++;
      if (checked.capped) this.recordsCapped++;
      return;
    }
    this.recordsRejected++;
    if (this.rejected.length < MAX_LISTED_REJECTIONS) this.rejected.push(checked.rejection);
  }

  /** Field order as before (concession, component, amounts, provenance): stored JSON stays the same. */
  private record(): AidRecord {
    const c = this.concession;
    const k = this.component;
    return {
      car: c.car,
      titoloMisura: c.titoloMisura,
      desTipoMisura: c.desTipoMisura,
      soggettoConcedente: c.soggettoConcedente,
      cor: c.cor,
      titoloProgetto: c.titoloProgetto,
      dataConcessione: c.dataConcessione,
      cup: c.cup,
      denominazioneBeneficiario: c.denominazioneBeneficiario,
      codiceFiscaleBeneficiario: c.codiceFiscaleBeneficiario,
      desTipoBeneficiario: c.desTipoBeneficiario,
      regioneBeneficiario: c.regioneBeneficiario,
      idComponenteAiuto: k.idComponenteAiuto,
      codProcedimento: k.codProcedimento,
      desProcedimento: k.desProcedimento,
      codRegolamento: k.codRegolamento,
      desRegolamento: k.desRegolamento,
      codObiettivo: k.codObiettivo,
      desObiettivo: k.desObiettivo,
      settoreAttivita: k.settoreAttivita,
      elementoDiAiutoCents: this.aidElementCents,
      importoNominaleCents: this.nominalCents,
      sourceFile: this.sourceFile,
      importId: this.importId,
    };
  }
}
