/**
 * Streams realistic register files (`OpenData_Aiuti_YYYY_MM[_NNN].xml|zip`) and the ground
 * truth of what a correct import must index (one AidRecord per component, JSON lines).
 * Nothing is held in memory beyond one concession: a million components is fine.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import yazl from 'yazl';
import type { AidRecord } from '@rna/domain';
import { hashString, intBetween, pick, seededRandom, type Random } from './random';
import { randomCodiceFiscale, randomForeignVat, randomPartitaIva } from './tax-codes';
import * as V from './vocabulary';

export const RNA_NAMESPACE = 'http://www.rna.it/RNA_aiuto/schema';

export interface GenerateOptions {
  outDir: string;
  /** YYYY_MM */
  months: string[];
  /** Aid components in total, spread evenly over the months. */
  aids: number;
  seed?: number;
  zip?: boolean;
  /** Stray control bytes and truncated tag names, as in some real files. */
  defects?: boolean;
  /** Components per file part before a month is split into _002, _003… (default 250,000). */
  partSize?: number;
  /** Ground-truth JSON lines path; null to skip (default <outDir>/ground-truth.jsonl). */
  truthFile?: string | null;
  /**
   * Another publication of the same months: 0 = first. Higher revisions drop some concessions and
   * change the amounts of others, as a corrected register file would.
   */
  revision?: number;
  /** Beneficiary pool size (default aids / 8, at least 20): smaller = more aids per tax code. */
  beneficiaries?: number;
}

export type TruthRecord = Omit<AidRecord, 'importId'>;

export interface GeneratedFile {
  name: string;
  fileName: string;
  path: string;
  components: number;
  xmlBytes: number;
}

export interface GenerateResult {
  files: GeneratedFile[];
  components: number;
  truthFile: string | null;
}

/** Writes strings with backpressure, buffering small pieces into larger chunks. */
class ChunkWriter {
  private buffer = '';
  bytes = 0;
  constructor(private readonly out: Writable) {}
  async write(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= 64 * 1024) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.buffer === '') return;
    const chunk = Buffer.from(this.buffer, 'utf8');
    this.buffer = '';
    this.bytes += chunk.length;
    if (!this.out.write(chunk)) await new Promise((resolve) => this.out.once('drain', resolve));
  }
}

const finished = (stream: WriteStream) =>
  new Promise<void>((resolve, reject) => {
    stream.on('close', resolve);
    stream.on('error', reject);
  });

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const centsToDecimal = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

interface Beneficiary {
  taxCode: string;
  name: string;
  size: string;
  region: string;
}

/** Beneficiary number i of the pool, derived from the seed alone (no table kept in memory). */
function beneficiary(seed: number, index: number): Beneficiary {
  const random = seededRandom(hashString(`beneficiary:${seed}:${index}`));
  const kind = random();
  if (kind < 0.8) {
    return {
      taxCode: randomPartitaIva(random),
      name: `${pick(random, V.COMPANY_WORDS)} ${pick(random, V.COMPANY_NAMES)} ${pick(random, V.LEGAL_FORMS)}`,
      size: pick(random, V.SIZES.slice(0, 4)),
      region: pick(random, V.REGIONS.slice(0, 20)),
    };
  }
  if (kind < 0.95) {
    return {
      taxCode: randomCodiceFiscale(random),
      name: `${pick(random, V.COMPANY_NAMES).toUpperCase()} ${pick(random, ['MARIA', 'LUCA', 'NICCOLÒ', 'GIOSUÈ', 'ANNA'])}`,
      size: 'Persona fisica',
      region: pick(random, V.REGIONS.slice(0, 20)),
    };
  }
  return {
    taxCode: randomForeignVat(random),
    name: `${pick(random, V.COMPANY_NAMES)} GmbH`,
    size: 'Grande impresa',
    region: 'Estero',
  };
}

function procedureFor(random: Random, year: number): V.Procedure {
  const roll = random();
  if (roll < 0.55) return year >= 2024 ? V.DE_MINIMIS_2024 : V.DE_MINIMIS_2013;
  if (roll < 0.6) return year >= 2024 ? V.DE_MINIMIS_SIEG : V.DE_MINIMIS_2013;
  if (roll < 0.7) return V.NOTIFIED;
  return V.EXEMPTED;
}

const CONTROL_BYTES = ['\u0002', '\u0010', '\u001a'];

interface MonthContext {
  seed: number;
  month: string;
  year: number;
  monthNumber: number;
  poolSize: number;
  defects: boolean;
  revision: number;
}

interface Concession {
  xml: string;
  truth: TruthRecord[];
  dropped: boolean;
}

/** One AIUTO element with 1–3 components of 1–3 instruments, and its expected records. */
function concession(context: MonthContext, random: Random, index: number, sourceFile: string): Concession {
  const { year, monthNumber } = context;
  const monthCode = `${year}${String(monthNumber).padStart(2, '0')}`;
  const who = beneficiary(context.seed, Math.floor(context.poolSize * random() ** 4));
  const measure = intBetween(random, 1, 60);
  const grantor = pick(random, V.GRANTORS);
  const day = String(intBetween(random, 1, 28)).padStart(2, '0');
  const date = `${year}-${String(monthNumber).padStart(2, '0')}-${day}`;
  const cup =
    random() < 0.4
      ? 'n.d.'
      : random() < 0.1
        ? ''
        : `J${intBetween(random, 10, 99)}H${intBetween(random, 100000000, 999999999)}`;
  const cor = `${monthCode}${String(index).padStart(7, '0')}`;
  const car = String(10000 + measure);
  const title = `Misura ${measure} - Sostegno alle attività produttive ${measure % 3 === 0 ? 'e all\'internazionalizzazione' : ''}`.trim(); // prettier-ignore
  const projectTitle = `Progetto n. ${index} di ${who.name}`;
  const longDescription = random() < 0.05;
  let description = longDescription
    ? V.LOREM.repeat(12)
    : V.LOREM.slice(0, intBetween(random, 40, V.LOREM.length));
  let beneficiaryName = who.name;
  let beneficiaryXmlName = who.name;
  const strayByte = context.defects && random() < 0.05;
  if (strayByte) {
    const control = pick(random, CONTROL_BYTES);
    description = description.slice(0, 10) + control + description.slice(10);
    beneficiaryXmlName = beneficiaryName.slice(0, 3) + control + beneficiaryName.slice(3);
  }
  const truncated = context.defects && random() < 0.05;
  const baseTag = truncated ? 'BASE_GIURIDICA_NAZ' : 'BASE_GIURIDICA_NAZIONALE';
  beneficiaryName = beneficiaryName.trim();

  const drop = context.revision > 0 && hashString(`${cor}:${context.revision}`) % 5 === 0;
  const amend = context.revision > 0 && hashString(`${cor}:amend:${context.revision}`) % 7 === 0;

  const measureType = pick(random, V.MEASURE_TYPES);
  let xml =
    `<AIUTO><CAR>${car}</CAR><TITOLO_MISURA>${escapeXml(title)}</TITOLO_MISURA>` +
    `<DES_TIPO_MISURA>${measureType}</DES_TIPO_MISURA>` +
    (random() < 0.5 ? `<COD_CE_MISURA>SA.${intBetween(random, 10000, 99999)}</COD_CE_MISURA>` : '') +
    `<${baseTag}>Decreto legislativo n. ${measure}/2019, art. ${intBetween(random, 1, 40)}</${baseTag}>` +
    `<LINK_TESTO_INTEGRALE_MISURA>https://www.normattiva.it/atto/${measure}</LINK_TESTO_INTEGRALE_MISURA>` +
    `<IDENTIFICATIVO_UFFICIO>${intBetween(random, 1000, 9999)}</IDENTIFICATIVO_UFFICIO>` +
    `<SOGGETTO_CONCEDENTE>${escapeXml(grantor)}</SOGGETTO_CONCEDENTE><COR>${cor}</COR>` +
    `<TITOLO_PROGETTO>${escapeXml(projectTitle)}</TITOLO_PROGETTO>` +
    `<DESCRIZIONE_PROGETTO>${escapeXml(description)}</DESCRIZIONE_PROGETTO>` +
    `<DATA_CONCESSIONE>${date}</DATA_CONCESSIONE><CUP>${cup}</CUP>` +
    (random() < 0.3 ? `<ATTO_CONCESSIONE>Decreto n. ${index}</ATTO_CONCESSIONE>` : '') +
    `<DENOMINAZIONE_BENEFICIARIO>${escapeXml(beneficiaryXmlName)}</DENOMINAZIONE_BENEFICIARIO>` +
    `<CODICE_FISCALE_BENEFICIARIO>${who.taxCode}</CODICE_FISCALE_BENEFICIARIO>` +
    `<DES_TIPO_BENEFICIARIO>${who.size}</DES_TIPO_BENEFICIARIO>` +
    `<REGIONE_BENEFICIARIO>${escapeXml(who.region)}</REGIONE_BENEFICIARIO><COMPONENTI_AIUTO>`;
  const truth: TruthRecord[] = [];
  const components = random() < 0.6 ? 1 : intBetween(random, 2, 3);
  for (let c = 1; c <= components; c++) {
    const id = `${cor}${c}`;
    const procedure = procedureFor(random, year);
    const [objectiveCode, objective] = pick(random, V.OBJECTIVES);
    const sector = pick(random, V.SECTORS);
    xml +=
      `<COMPONENTE_AIUTO><ID_COMPONENTE_AIUTO>${id}</ID_COMPONENTE_AIUTO>` +
      `<COD_PROCEDIMENTO>${procedure.code}</COD_PROCEDIMENTO><DES_PROCEDIMENTO>${procedure.description}</DES_PROCEDIMENTO>` +
      `<COD_REGOLAMENTO>${procedure.regulation}</COD_REGOLAMENTO><DES_REGOLAMENTO>${procedure.regulationDescription}</DES_REGOLAMENTO>` +
      `<COD_OBIETTIVO>${objectiveCode}</COD_OBIETTIVO><DES_OBIETTIVO>${escapeXml(objective)}</DES_OBIETTIVO>` +
      (random() < 0.1 ? `<SOGGETTO_INTERMEDIARIO>Banca del Territorio S.p.A.</SOGGETTO_INTERMEDIARIO>` : '') +
      `<SETTORE_ATTIVITA>${sector}</SETTORE_ATTIVITA><STRUMENTI_AIUTO>`;
    let elementCents = 0;
    let nominalCents = 0;
    const instruments = random() < 0.7 ? 1 : intBetween(random, 2, 3);
    for (let s = 0; s < instruments; s++) {
      const [code, name] = pick(random, V.INSTRUMENTS);
      // De minimis grants are small (the ceiling is 300,000 € over three years); other procedures
      // occasionally reach millions.
      const ceilingCents = procedure.code === '1' ? 6_000_000 : random() < 0.1 ? 500_000_000 : 5_000_000;
      let nominal = intBetween(random, 50_000, ceilingCents);
      if (amend) nominal += 100;
      const element = code === '2' || code === '3' ? Math.round(nominal / 10) : nominal;
      elementCents += element;
      nominalCents += nominal;
      const nominalTag = truncated && s === 0 ? 'IMPORTO_NOMIN' : 'IMPORTO_NOMINALE';
      xml +=
        `<STRUMENTO_AIUTO><COD_STRUMENTO>${code}</COD_STRUMENTO><DES_STRUMENTO>${escapeXml(name)}</DES_STRUMENTO>` +
        `<ELEMENTO_DI_AIUTO>${centsToDecimal(element)}</ELEMENTO_DI_AIUTO>` +
        `<${nominalTag}>${centsToDecimal(nominal)}</${nominalTag}></STRUMENTO_AIUTO>`;
    }
    xml += `</STRUMENTI_AIUTO></COMPONENTE_AIUTO>`;
    truth.push({
      idComponenteAiuto: id,
      cor,
      car,
      titoloMisura: title,
      desTipoMisura: measureType,
      soggettoConcedente: grantor,
      titoloProgetto: projectTitle,
      dataConcessione: date,
      cup,
      denominazioneBeneficiario: beneficiaryName,
      codiceFiscaleBeneficiario: who.taxCode,
      desTipoBeneficiario: who.size,
      regioneBeneficiario: who.region,
      codProcedimento: procedure.code,
      desProcedimento: procedure.description,
      codRegolamento: procedure.regulation,
      desRegolamento: procedure.regulationDescription,
      codObiettivo: objectiveCode,
      desObiettivo: objective,
      settoreAttivita: sector,
      elementoDiAiutoCents: elementCents,
      importoNominaleCents: nominalCents,
      sourceFile,
    });
  }
  xml += `</COMPONENTI_AIUTO></AIUTO>`;
  return { xml, truth, dropped: drop };
}

interface PartSink {
  writer: ChunkWriter;
  done: () => Promise<void>;
}

/** Opens one part: a plain XML file, or a zip whose single entry is the XML, written as it streams. */
async function openPart(dir: string, fileName: string, zip: boolean): Promise<PartSink> {
  const xmlName = `${fileName}.xml`;
  if (!zip) {
    const temp = path.join(dir, `.${xmlName}.tmp`);
    const file = createWriteStream(temp);
    return {
      writer: new ChunkWriter(file),
      done: async () => {
        file.end();
        await finished(file);
        await rename(temp, path.join(dir, xmlName));
      },
    };
  }
  const temp = path.join(dir, `.${fileName}.zip.tmp`);
  const archive = new yazl.ZipFile();
  const entry = new PassThrough({ highWaterMark: 256 * 1024 });
  archive.addReadStream(entry, xmlName);
  archive.end();
  const file = createWriteStream(temp);
  archive.outputStream.pipe(file);
  return {
    writer: new ChunkWriter(entry),
    done: async () => {
      entry.end();
      await finished(file);
      await rename(temp, path.join(dir, `${fileName}.zip`));
    },
  };
}

const HEADER = `<?xml version="1.0" encoding="UTF-8"?>\n<LISTA_AIUTI xmlns="${RNA_NAMESPACE}">\n`;
const FOOTER = `</LISTA_AIUTI>\n`;

export async function generateArchive(options: GenerateOptions): Promise<GenerateResult> {
  const seed = options.seed ?? 1;
  const partSize = options.partSize ?? 250_000;
  const poolSize = options.beneficiaries ?? Math.max(20, Math.ceil(options.aids / 8));
  await mkdir(options.outDir, { recursive: true });
  const truthPath =
    options.truthFile === undefined ? path.join(options.outDir, 'ground-truth.jsonl') : options.truthFile;
  const truthFile = truthPath ? createWriteStream(truthPath) : null;
  const truth = truthFile ? new ChunkWriter(truthFile) : null;
  const files: GeneratedFile[] = [];
  let total = 0;

  for (const [monthIndex, month] of options.months.entries()) {
    const match = /^(\d{4})_(\d{2})$/.exec(month);
    if (!match) throw new Error(`Mese non valido: ${month} (atteso YYYY_MM)`);
    const target =
      Math.floor(options.aids / options.months.length) +
      (monthIndex < options.aids % options.months.length ? 1 : 0);
    const context: MonthContext = {
      seed,
      month,
      year: Number(match[1]),
      monthNumber: Number(match[2]),
      poolSize,
      defects: options.defects ?? false,
      revision: options.revision ?? 0,
    };
    const random = seededRandom(hashString(`month:${seed}:${month}`));
    let generated = 0;
    let concessionIndex = 0;
    let part = 0;
    while (generated < target || part === 0) {
      part++;
      const name = part === 1 ? month : `${month}_${String(part).padStart(3, '0')}`;
      const fileName = `OpenData_Aiuti_${name}`;
      const sink = await openPart(options.outDir, fileName, options.zip ?? false);
      await sink.writer.write(HEADER);
      let inPart = 0;
      while (generated < target && inPart < partSize) {
        concessionIndex++;
        const next = concession(context, random, concessionIndex, name);
        // Dropped concessions still count, so that a revision is the same month minus some aids.
        generated += next.truth.length;
        inPart += next.truth.length;
        if (next.dropped) continue;
        await sink.writer.write(next.xml);
        await sink.writer.write('\n');
        for (const record of next.truth) await truth?.write(`${JSON.stringify(record)}\n`);
        total += next.truth.length;
      }
      await sink.writer.write(FOOTER);
      await sink.writer.flush();
      await sink.done();
      files.push({
        name,
        fileName: `${fileName}.${options.zip ? 'zip' : 'xml'}`,
        path: path.join(options.outDir, `${fileName}.${options.zip ? 'zip' : 'xml'}`),
        components: inPart,
        xmlBytes: sink.writer.bytes,
      });
    }
  }
  if (truth && truthFile) {
    await truth.flush();
    truthFile.end();
    await finished(truthFile);
  }
  return { files, components: total, truthFile: truthPath };
}
