/**
 * Streaming parser of the register's open-data XML (`LISTA_AIUTI`): one AidRecord per
 * COMPONENTE_AIUTO, with the concession's fields and the sum of its instruments' amounts.
 * Memory stays flat: records are handed out in batches and the next chunk is read only after
 * the batch handler resolved (backpressure).
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import type { AidRecord } from '@rna/domain';

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

/** Converts a register decimal ("10000.00", "12,5", "-3") to integer cents without float drift. */
export function decimalToCents(text: string): number {
  const trimmed = text.trim().replace(',', '.');
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return 0;
  const sign = match[1] === '-' ? -1 : 1;
  const whole = Number(match[2] || '0');
  const fraction = (match[3] ?? '').padEnd(3, '0');
  // Round half up on the third decimal.
  const cents = Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return sign * (whole * 100 + cents);
}

/**
 * Removes the control bytes that make some register files ill-formed (0x00–0x1F except tab,
 * newline, carriage return) and counts them. They never occur inside UTF-8 multi-byte sequences.
 */
export class ControlByteFilter extends Transform {
  removed = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let firstBad = -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) {
        firstBad = i;
        break;
      }
    }
    if (firstBad < 0) {
      callback(null, chunk);
      return;
    }
    const out = Buffer.allocUnsafe(chunk.length);
    chunk.copy(out, 0, 0, firstBad);
    let length = firstBad;
    for (let i = firstBad; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) this.removed++;
      else out[length++] = b;
    }
    callback(null, out.subarray(0, length));
  }
}

export interface ParseOptions {
  sourceFile: string;
  importId: string;
  batchSize?: number;
  /** Awaited before the parser reads on. */
  onBatch: (records: AidRecord[]) => Promise<void>;
}

export interface ParseReport {
  records: number;
  controlBytesRemoved: number;
  /** Truncated element names met, e.g. "IMPORTO_NOMIN→IMPORTO_NOMINALE". */
  truncatedTags: string[];
  xmlBytes: number;
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

/** Parses one register XML stream; rejects with RegisterFileFormatError on ill-formed XML. */
export async function parseAidStream(xml: Readable, options: ParseOptions): Promise<ParseReport> {
  const batchSize = options.batchSize ?? 2000;
  const filter = new ControlByteFilter();
  const cleaned = xml.pipe(filter);
  xml.on('error', (error) => cleaned.destroy(error));
  const parser = new SaxesParser({ xmlns: false, position: true });
  const decoder = new StringDecoder('utf8');
  const truncated = new Set<string>();
  const contexts: Context[] = ['ROOT'];
  let pending: AidRecord[] = [];
  let records = 0;
  let xmlBytes = 0;
  let failure: RegisterFileFormatError | null = null;

  let concession = emptyConcession();
  let component = emptyComponent();
  let aidElementCents = 0;
  let nominalCents = 0;
  let field: string | null = null; // element whose text is being collected
  let text = '';

  const resolveName = (raw: string): string => {
    const name = raw.includes(':') ? raw.slice(raw.indexOf(':') + 1) : raw;
    const context = contexts[contexts.length - 1] ?? 'ROOT';
    const known = KNOWN_CHILDREN[context];
    if (known.includes(name)) return name;
    const candidates = known.filter((k) => k.startsWith(name));
    if (candidates.length === 1) {
      const full = candidates[0] as string;
      truncated.add(`${name}→${full}`);
      return full;
    }
    return name;
  };

  parser.on('opentag', (tag) => {
    const name = resolveName(tag.name);
    if (name === 'AIUTO') {
      contexts.push('AIUTO');
      concession = emptyConcession();
    } else if (name === 'COMPONENTE_AIUTO') {
      contexts.push('COMPONENTE_AIUTO');
      component = emptyComponent();
      aidElementCents = 0;
      nominalCents = 0;
    } else if (name === 'STRUMENTO_AIUTO') {
      contexts.push('STRUMENTO_AIUTO');
    } else if (!CONTAINERS.has(name)) {
      field = name;
      text = '';
    }
  });
  parser.on('text', (value) => {
    if (field !== null) text += value;
  });
  parser.on('cdata', (value) => {
    if (field !== null) text += value;
  });
  parser.on('closetag', (tag) => {
    const context = contexts[contexts.length - 1] ?? 'ROOT';
    const name = field ?? resolveName(tag.name);
    if (field !== null) {
      const value = text.trim();
      if (context === 'AIUTO' && name in CONCESSION_FIELDS) {
        concession[CONCESSION_FIELDS[name as keyof typeof CONCESSION_FIELDS]] = value;
      } else if (context === 'COMPONENTE_AIUTO' && name in COMPONENT_FIELDS) {
        component[COMPONENT_FIELDS[name as keyof typeof COMPONENT_FIELDS]] = value;
      } else if (context === 'STRUMENTO_AIUTO' && name === 'ELEMENTO_DI_AIUTO') {
        aidElementCents += decimalToCents(value);
      } else if (context === 'STRUMENTO_AIUTO' && name === 'IMPORTO_NOMINALE') {
        nominalCents += decimalToCents(value);
      }
      field = null;
      return;
    }
    if (name === 'COMPONENTE_AIUTO' && context === 'COMPONENTE_AIUTO') {
      contexts.pop();
      pending.push({
        ...concession,
        ...component,
        elementoDiAiutoCents: aidElementCents,
        importoNominaleCents: nominalCents,
        sourceFile: options.sourceFile,
        importId: options.importId,
      });
      records++;
    } else if (name === context) {
      contexts.pop();
    }
  });
  parser.on('error', (error) => {
    // saxes keeps going after an error; the first one decides the file's fate.
    failure ??= new RegisterFileFormatError(error.message, parser.line);
  });

  const flush = async (all: boolean) => {
    while (pending.length >= batchSize || (all && pending.length > 0)) {
      const batch = pending.slice(0, batchSize);
      pending = pending.slice(batch.length);
      await options.onBatch(batch);
    }
  };

  for await (const chunk of cleaned as AsyncIterable<Buffer>) {
    xmlBytes += chunk.length;
    parser.write(decoder.write(chunk));
    if (failure) break;
    await flush(false);
  }
  if (!failure) parser.write(decoder.end()).close();
  if (failure) {
    cleaned.destroy();
    xml.destroy();
    throw failure;
  }
  await flush(true);
  return {
    records,
    controlBytesRemoved: filter.removed,
    truncatedTags: [...truncated].sort(),
    xmlBytes,
  };
}
