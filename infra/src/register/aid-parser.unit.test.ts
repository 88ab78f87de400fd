import { Readable } from 'node:stream';
import type { AidRecord } from '@rna/domain';
import { decimalToCents, parseAidStream, RegisterFileFormatError, type EncodedAidBatch } from './aid-parser';
import { unpackTexts } from '../packed-texts/packed-texts';
import { DECODE_SLICE_BYTES, removeControlCharacters } from './aid-extractor';
import { parseListingHtml } from './listing';

/** The sync's clock in these tests: grants up to 15 March 2025 are plausible. */
const NOW = new Date('2024-03-15T10:00:00Z');

const xml = (body: string) =>
  Readable.from([
    Buffer.from(
      `<?xml version="1.0"?><ns:LISTA_AIUTI xmlns:ns="http://www.rna.it/RNA_aiuto/schema">${body}</ns:LISTA_AIUTI>`,
    ),
  ]);

/** `whole` cut every `size` bytes and parsed on this thread: its records and report. */
async function parsedInPieces(whole: Buffer, size: number) {
  const pieces: Buffer[] = [];
  for (let i = 0; i < whole.length; i += size) pieces.push(whole.subarray(i, i + size));
  const records: AidRecord[] = [];
  const report = await parseAidStream(Readable.from(pieces), {
    sourceFile: 'f',
    importId: 'x',
    now: NOW,
    inline: true,
    onBatch: async (batch) => void records.push(...batch),
  });
  return { records, report };
}

/** `whole` in pieces of 1 to `largest` bytes of varying sizes, cut anywhere, as unzipping hands a file out. */
function cutAnywhere(whole: Buffer, largest: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < whole.length; i++) {
    const size = 1 + ((i * 7919) % largest);
    pieces.push(whole.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

/** Byte `at` of `bytes` is a UTF-8 continuation byte: a cut before it falls inside a character. */
const continuesACharacter = (bytes: Buffer, at: number) => (bytes[at]! & 0xc0) === 0x80;

describe('decimalToCents', () => {
  it('converts register decimals exactly', () => {
    expect(decimalToCents('10000.00')).toBe(1_000_000);
    expect(decimalToCents('0.1')).toBe(10);
    expect(decimalToCents('1234,56')).toBe(123_456);
    expect(decimalToCents('19.999')).toBe(2000);
    expect(decimalToCents('')).toBe(0);
  });
  it('makes text that is not an amount NaN, for the record check to reject, not 0 €', () => {
    expect(decimalToCents('n.d.')).toBeNaN();
    expect(decimalToCents('.')).toBeNaN();
    expect(decimalToCents('-500000.00')).toBe(-50_000_000);
  });
});

describe('parseAidStream', () => {
  it('sums the instruments of each component and strips a namespace prefix', async () => {
    const records: unknown[] = [];
    const report = await parseAidStream(
      xml(
        '<ns:AIUTO><ns:COR>9</ns:COR><ns:DATA_CONCESSIONE>2024-02-29</ns:DATA_CONCESSIONE><ns:CODICE_FISCALE_BENEFICIARIO>00743110157</ns:CODICE_FISCALE_BENEFICIARIO>' +
          '<ns:COMPONENTI_AIUTO><ns:COMPONENTE_AIUTO><ns:ID_COMPONENTE_AIUTO>91</ns:ID_COMPONENTE_AIUTO><ns:COD_PROCEDIMENTO>1</ns:COD_PROCEDIMENTO>' +
          '<ns:STRUMENTI_AIUTO><ns:STRUMENTO_AIUTO><ns:ELEMENTO_DI_AIUTO>100.10</ns:ELEMENTO_DI_AIUTO><ns:IMPORTO_NOMINALE>200</ns:IMPORTO_NOMINALE></ns:STRUMENTO_AIUTO>' +
          '<ns:STRUMENTO_AIUTO><ns:ELEMENTO_DI_AIUTO>0.05</ns:ELEMENTO_DI_AIUTO><ns:IMPORTO_NOMIN>1.5</ns:IMPORTO_NOMIN></ns:STRUMENTO_AIUTO></ns:STRUMENTI_AIUTO>' +
          '</ns:COMPONENTE_AIUTO></ns:COMPONENTI_AIUTO></ns:AIUTO>',
      ),
      {
        sourceFile: '2024_01',
        importId: 'x',
        now: NOW,
        onBatch: async (batch) => void records.push(...batch),
      },
    );
    expect(records).toEqual([
      expect.objectContaining({
        idComponenteAiuto: '91',
        cor: '9',
        dataConcessione: '2024-02-29',
        codiceFiscaleBeneficiario: '00743110157',
        codProcedimento: '1',
        elementoDiAiutoCents: 10_015,
        importoNominaleCents: 20_150,
        sourceFile: '2024_01',
      }),
    ]);
    expect(report.truncatedTags).toEqual(['IMPORTO_NOMIN→IMPORTO_NOMINALE']);
  });

  it('reads each field wherever it stands, among hundreds of unknown elements and names written two ways', async () => {
    // each aid writes its fields in another order, with and without the prefix, the amount's name cut,
    // and 50 element names no other aid uses (300 in the file: more than the parser keeps per context)
    const aid = (n: number) => {
      const unknown = Array.from({ length: 50 }, (_, k) => `<ns:ALTRO_${n}_${k}>x</ns:ALTRO_${n}_${k}>`);
      const fields = [
        `<ns:DATA_CONCESSIONE>2024-01-1${n}</ns:DATA_CONCESSIONE>`,
        n % 2
          ? `<CODICE_FISCALE_BENEFICIARIO>CF${n}</CODICE_FISCALE_BENEFICIARIO>`
          : `<ns:CODICE_FISCALE_BENEFICIARIO>CF${n}</ns:CODICE_FISCALE_BENEFICIARIO>`,
        `<ns:TITOLO_MISURA>Misura ${n}</ns:TITOLO_MISURA>`,
        `<ns:COR>${n}</ns:COR>`,
      ];
      const ordered = [...fields.slice(n % 4), ...fields.slice(0, n % 4)];
      return (
        `<ns:AIUTO>${unknown.slice(0, 25).join('')}${ordered.join('')}${unknown.slice(25).join('')}` +
        `<ns:COMPONENTI_AIUTO><ns:COMPONENTE_AIUTO><ns:COD_PROCEDIMENTO>${n}</ns:COD_PROCEDIMENTO>` +
        `<ns:ID_COMPONENTE_AIUTO>${100 + n}</ns:ID_COMPONENTE_AIUTO><ns:STRUMENTI_AIUTO><ns:STRUMENTO_AIUTO>` +
        `<ns:IMPORTO_NOMIN>${n}</ns:IMPORTO_NOMIN><ns:ELEMENTO_DI_AIUTO>${n}.5</ns:ELEMENTO_DI_AIUTO>` +
        `</ns:STRUMENTO_AIUTO></ns:STRUMENTI_AIUTO></ns:COMPONENTE_AIUTO></ns:COMPONENTI_AIUTO></ns:AIUTO>`
      );
    };
    const records: AidRecord[] = [];
    const report = await parseAidStream(xml([1, 2, 3, 4, 5, 6].map(aid).join('')), {
      sourceFile: 'f',
      importId: 'x',
      now: NOW,
      inline: true,
      onBatch: async (batch) => void records.push(...batch),
    });
    expect(
      records.map((r) => [
        r.idComponenteAiuto,
        r.dataConcessione,
        r.codiceFiscaleBeneficiario,
        r.titoloMisura,
        r.cor,
        r.codProcedimento,
        r.elementoDiAiutoCents,
        r.importoNominaleCents,
      ]),
    ).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [
        String(100 + n),
        `2024-01-1${n}`,
        `CF${n}`,
        `Misura ${n}`,
        String(n),
        String(n),
        n * 100 + 50,
        n * 100,
      ]),
    );
    expect(report.truncatedTags).toEqual(['IMPORTO_NOMIN→IMPORTO_NOMINALE']);
  });

  it('gives the same records, batches and report on a worker thread as inline', async () => {
    const aid = (id: number, tax: string) =>
      `<ns:AIUTO><ns:DATA_CONCESSIONE>2024-01-0${id}</ns:DATA_CONCESSIONE>` +
      `<ns:CODICE_FISCALE_BENEFICIARIO>${tax}</ns:CODICE_FISCALE_BENEFICIARIO>` +
      `<ns:DESCRIZIONE_PROGETTO>ignored \u0001 text</ns:DESCRIZIONE_PROGETTO><ns:COMPONENTI_AIUTO>` +
      `<ns:COMPONENTE_AIUTO><ns:ID_COMPONENTE_AIUTO>${id}</ns:ID_COMPONENTE_AIUTO><ns:STRUMENTI_AIUTO>` +
      `<ns:STRUMENTO_AIUTO><ns:ELEMENTO_DI_AIUTO>1.5</ns:ELEMENTO_DI_AIUTO></ns:STRUMENTO_AIUTO>` +
      `</ns:STRUMENTI_AIUTO></ns:COMPONENTE_AIUTO></ns:COMPONENTI_AIUTO></ns:AIUTO>`;
    const body = Array.from({ length: 7 }, (_, i) => aid(i + 1, `CF${i}`)).join('');
    const run = async (inline: boolean) => {
      const batches: AidRecord[][] = [];
      const report = await parseAidStream(xml(body), {
        sourceFile: 'f',
        importId: 'x',
        now: NOW,
        batchSize: 3,
        inline,
        onBatch: async (batch) => void batches.push(batch),
      });
      return { batches, report };
    };
    const inline = await run(true);
    const threaded = await run(false);
    expect(inline.batches.map((b) => b.length)).toEqual([3, 3, 1]);
    expect(inline.report.controlBytesRemoved).toBe(7);
    expect(inline.batches.flat()[6]).toMatchObject({ idComponenteAiuto: '7', elementoDiAiutoCents: 150 });
    expect(threaded).toEqual(inline);
  });

  it('gives the same records on a worker thread when the file comes in small pieces, as unzipping hands it out', async () => {
    const aid = (id: number) =>
      `<AIUTO><DATA_CONCESSIONE>2024-01-02</DATA_CONCESSIONE>` +
      `<CODICE_FISCALE_BENEFICIARIO>CF${id % 97}</CODICE_FISCALE_BENEFICIARIO>` +
      `<DENOMINAZIONE_BENEFICIARIO>Società n. ${id} à è ì</DENOMINAZIONE_BENEFICIARIO>` +
      `<TITOLO_PROGETTO>${'àèìòù'.repeat(10 + (id % 7))}</TITOLO_PROGETTO>` +
      `<DESCRIZIONE_PROGETTO>${'x'.repeat(id % 300)}</DESCRIZIONE_PROGETTO><COMPONENTI_AIUTO>` +
      `<COMPONENTE_AIUTO><ID_COMPONENTE_AIUTO>${id}</ID_COMPONENTE_AIUTO><STRUMENTI_AIUTO><STRUMENTO_AIUTO>` +
      `<ELEMENTO_DI_AIUTO>${id}.25</ELEMENTO_DI_AIUTO></STRUMENTO_AIUTO></STRUMENTI_AIUTO>` +
      `</COMPONENTE_AIUTO></COMPONENTI_AIUTO></AIUTO>`;
    const whole = Buffer.from(
      `<?xml version="1.0"?><LISTA_AIUTI>${Array.from({ length: 3000 }, (_, i) => aid(i + 1)).join('')}</LISTA_AIUTI>`,
    );
    // pieces of 1 to 16 KB, cut anywhere (inside a tag, inside a character): more than a megabyte in all
    const pieces = cutAnywhere(whole, 16384);
    let cutsInsideACharacter = 0;
    for (let i = 0, at = 0; i < pieces.length - 1; i++) {
      at += pieces[i]!.length;
      if (continuesACharacter(whole, at)) cutsInsideACharacter += 1;
    }
    expect(whole.length).toBeGreaterThan(1024 * 1024);
    expect(cutsInsideACharacter).toBeGreaterThan(0);
    const run = async (input: Readable, inline: boolean) => {
      const records: AidRecord[] = [];
      const report = await parseAidStream(input, {
        sourceFile: 'f',
        importId: 'x',
        now: NOW,
        inline,
        onBatch: async (batch) => void records.push(...batch),
      });
      return { records, report };
    };
    const inline = await run(Readable.from([whole]), true);
    const threaded = await run(Readable.from(pieces), false);
    expect(inline.records).toHaveLength(3000);
    expect(inline.records[2999]).toMatchObject({
      idComponenteAiuto: '3000',
      denominazioneBeneficiario: 'Società n. 3000 à è ì',
      elementoDiAiutoCents: 300025,
    });
    expect(threaded).toEqual(inline);
  });

  it('gives encoded batches on a worker thread: the JSON and tax code of each aid, in full batches, the last one partial', async () => {
    const aid = (id: number) =>
      `<AIUTO><DATA_CONCESSIONE>2024-01-02</DATA_CONCESSIONE>` +
      `<CODICE_FISCALE_BENEFICIARIO>${id % 3 ? 'RSSMRA80A01H501U' : `0${id}`.padStart(11, '7')}</CODICE_FISCALE_BENEFICIARIO>` +
      `<DENOMINAZIONE_BENEFICIARIO>Società "n. ${id}" à</DENOMINAZIONE_BENEFICIARIO><COMPONENTI_AIUTO>` +
      `<COMPONENTE_AIUTO><ID_COMPONENTE_AIUTO>${id}</ID_COMPONENTE_AIUTO><STRUMENTI_AIUTO><STRUMENTO_AIUTO>` +
      `<ELEMENTO_DI_AIUTO>${id}.5</ELEMENTO_DI_AIUTO></STRUMENTO_AIUTO></STRUMENTI_AIUTO>` +
      `</COMPONENTE_AIUTO></COMPONENTI_AIUTO></AIUTO>`;
    const whole = Buffer.from(
      `<?xml version="1.0"?><LISTA_AIUTI>${Array.from({ length: 1234 }, (_, i) => aid(i + 1)).join('')}</LISTA_AIUTI>`,
    );
    const pieces = cutAnywhere(whole, 4096);
    const { records } = await parsedInPieces(whole, whole.length);
    const run = async (inline: boolean) => {
      const batches: EncodedAidBatch[] = [];
      await parseAidStream(Readable.from(inline ? [whole] : pieces), {
        sourceFile: 'f',
        importId: 'x',
        now: NOW,
        batchSize: 500,
        inline,
        onEncodedBatch: async (batch) => void batches.push(batch),
      });
      return batches;
    };
    for (const batches of [await run(false), await run(true)]) {
      expect(batches.map((b) => [b.messages.lengths.length, b.taxCodes.length])).toEqual([
        [500, 500],
        [500, 500],
        [234, 234],
      ]);
      // each aid as its AidRecorded message, the text the log stores
      const texts = batches.flatMap((b) => unpackTexts(b.messages));
      expect(texts.map((text) => JSON.parse(text) as unknown)).toEqual(
        records.map((aid) => ({ type: 'AidRecorded', aid })),
      );
      expect(texts).toEqual(records.map((aid) => JSON.stringify({ type: 'AidRecorded', aid })));
      expect(batches.flatMap((b) => b.taxCodes)).toEqual(records.map((r) => r.codiceFiscaleBeneficiario));
    }
    expect(records[1232]).toMatchObject({
      denominazioneBeneficiario: 'Società "n. 1233" à',
      elementoDiAiutoCents: 123350,
    });
  });

  it('removes every control character but tab, newline and carriage return, and counts them', () => {
    const controls = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));
    const kept = ['\t', '\n', '\r'];
    const removable = controls.filter((c) => !kept.includes(c));
    expect(removable).toHaveLength(29);
    const text = `<a>è${controls.join('')}😀 x\u007f\u0085</a>`;
    expect(removeControlCharacters(text)).toEqual({ text: '<a>è\t\n\r😀 x\u007f\u0085</a>', removed: 29 });
    // the same text when there is none to remove
    const clean = '<a>\tè\r\n</a>';
    expect(removeControlCharacters(clean)).toEqual({ text: clean, removed: 0 });
    // a text that is nothing but one
    expect(removeControlCharacters('\u0001').removed).toBe(1);
  });

  it('counts the control bytes of a file cut into chunks anywhere, multi-byte characters included', async () => {
    const body =
      '<ns:AIUTO><ns:DATA_CONCESSIONE>2024-01-02</ns:DATA_CONCESSIONE>' +
      '<ns:CODICE_FISCALE_BENEFICIARIO>CF1</ns:CODICE_FISCALE_BENEFICIARIO>' +
      '<ns:DENOMINAZIONE_BENEFICIARIO>Caffè\u0002 Città\u001f</ns:DENOMINAZIONE_BENEFICIARIO>' +
      '<ns:COMPONENTI_AIUTO><ns:COMPONENTE_AIUTO><ns:ID_COMPONENTE_AIUTO>1</ns:ID_COMPONENTE_AIUTO>' +
      '</ns:COMPONENTE_AIUTO></ns:COMPONENTI_AIUTO></ns:AIUTO>';
    const whole = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><ns:LISTA_AIUTI xmlns:ns="x">${body}</ns:LISTA_AIUTI>`,
    );
    for (const size of [1, 2, 3, 7]) {
      const { records, report } = await parsedInPieces(whole, size);
      expect(report.controlBytesRemoved).toBe(2);
      expect(records[0]!.denominazioneBeneficiario).toBe('Caffè Città');
    }
  });

  it('reads a file with a byte-order mark and a broken UTF-8 sequence, cut into chunks anywhere', async () => {
    const body =
      '<AIUTO><DATA_CONCESSIONE>2024-01-02</DATA_CONCESSIONE>' +
      '<CODICE_FISCALE_BENEFICIARIO>CF1</CODICE_FISCALE_BENEFICIARIO><DENOMINAZIONE_BENEFICIARIO>Caff';
    const rest =
      ' Città</DENOMINAZIONE_BENEFICIARIO><COMPONENTI_AIUTO><COMPONENTE_AIUTO>' +
      '<ID_COMPONENTE_AIUTO>1</ID_COMPONENTE_AIUTO></COMPONENTE_AIUTO></COMPONENTI_AIUTO></AIUTO>';
    const whole = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><LISTA_AIUTI>${body}`),
      // a lone continuation byte and a sequence cut short: each one replacement character
      Buffer.from([0x80, 0xc3]),
      Buffer.from(`${rest}</LISTA_AIUTI>`),
    ]);
    for (const size of [1, 2, 5, whole.length]) {
      const { records } = await parsedInPieces(whole, size);
      expect(records.map((r) => r.denominazioneBeneficiario)).toEqual(['Caff\ufffd\ufffd Città']);
    }
  });

  it('reads a file written in one piece larger than a decoding slice, characters cut at the slices included', async () => {
    // the decoder and the control-character scan take DECODE_SLICE_BYTES at a time: the slices of
    // one large write must join like the chunks of a stream
    const aid = (i: number) =>
      `<AIUTO><DATA_CONCESSIONE>2024-01-02</DATA_CONCESSIONE><CODICE_FISCALE_BENEFICIARIO>CF${i}</CODICE_FISCALE_BENEFICIARIO>` +
      `<DENOMINAZIONE_BENEFICIARIO>Caffè😀\u0002 Città ${i}</DENOMINAZIONE_BENEFICIARIO><COMPONENTI_AIUTO><COMPONENTE_AIUTO>` +
      `<ID_COMPONENTE_AIUTO>${i}</ID_COMPONENTE_AIUTO></COMPONENTE_AIUTO></COMPONENTI_AIUTO></AIUTO>`;
    const count = 1000;
    const aids = Array.from({ length: count }, (_, i) => aid(i)).join('');
    let cutInsideCharacters = 0;
    // the same aids shifted by 0–3 bytes, so that some slice ends inside a character whatever the layout
    for (const shift of [0, 1, 2, 3]) {
      const whole = Buffer.from(
        `<?xml version="1.0"?><LISTA_AIUTI>${' '.repeat(shift)}${aids}</LISTA_AIUTI>`,
      );
      expect(whole.length).toBeGreaterThan(3 * DECODE_SLICE_BYTES);
      for (let end = DECODE_SLICE_BYTES; end < whole.length; end += DECODE_SLICE_BYTES) {
        if (continuesACharacter(whole, end)) cutInsideCharacters++;
      }
      const { records, report } = await parsedInPieces(whole, whole.length);
      expect(records.map((r) => r.denominazioneBeneficiario)).toEqual(
        Array.from({ length: count }, (_, i) => `Caffè😀 Città ${i}`),
      );
      expect(report.controlBytesRemoved).toBe(count);
    }
    expect(cutInsideCharacters).toBeGreaterThan(0);
  });

  it('keeps the text of wanted fields only, entities and CDATA included, however the file is cut', async () => {
    const whole = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><LISTA_AIUTI><AIUTO>' +
        '<BASE_GIURIDICA_NAZIONALE>Legge &amp; decreto <![CDATA[<ignorato>]]></BASE_GIURIDICA_NAZIONALE>' +
        '<TITOLO_MISURA>Fondo &lt;PMI&gt; &amp; <![CDATA[R&S]]> 2024</TITOLO_MISURA>' +
        '<DESCRIZIONE_PROGETTO>testo lungo &quot;da non tenere&quot;</DESCRIZIONE_PROGETTO>' +
        '<DATA_CONCESSIONE>2024-01-02</DATA_CONCESSIONE>' +
        '<CODICE_FISCALE_BENEFICIARIO> CF1 </CODICE_FISCALE_BENEFICIARIO>' +
        '<DENOMINAZIONE_BENEFICIARIO>Rossi &amp; figli</DENOMINAZIONE_BENEFICIARIO>' +
        '<COMPONENTI_AIUTO><COMPONENTE_AIUTO><ID_COMPONENTE_AIUTO>1</ID_COMPONENTE_AIUTO>' +
        '<SOGGETTO_INTERMEDIARIO>Banca &amp; C.</SOGGETTO_INTERMEDIARIO>' +
        '<STRUMENTI_AIUTO><STRUMENTO_AIUTO><DES_STRUMENTO>Sovvenzione &amp; altro</DES_STRUMENTO>' +
        '<ELEMENTO_DI_AIUTO>10.50</ELEMENTO_DI_AIUTO></STRUMENTO_AIUTO></STRUMENTI_AIUTO>' +
        '</COMPONENTE_AIUTO></COMPONENTI_AIUTO></AIUTO></LISTA_AIUTI>',
    );
    for (const size of [1, 3, 7, whole.length]) {
      const { records } = await parsedInPieces(whole, size);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        titoloMisura: 'Fondo <PMI> & R&S 2024',
        denominazioneBeneficiario: 'Rossi & figli',
        codiceFiscaleBeneficiario: 'CF1',
        idComponenteAiuto: '1',
        elementoDiAiutoCents: 1050,
      });
      expect(JSON.stringify(records[0])).not.toMatch(/ignorato|da non tenere|Banca|Sovvenzione|Legge/);
    }
  });

  it('rejects ill-formed XML with the line, inline or not', async () => {
    for (const inline of [true, false]) {
      const error = await parseAidStream(xml('<ns:AIUTO>\n<ns:COR>1</ns:CO></ns:AIUTO>'), {
        sourceFile: 'f',
        importId: 'x',
        now: NOW,
        inline,
        onBatch: async () => undefined,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RegisterFileFormatError);
      expect((error as RegisterFileFormatError).line).toBe(2);
    }
  });

  it('rejects ill-formed XML with the line', async () => {
    await expect(
      parseAidStream(xml('<ns:AIUTO>\n<ns:COR>1</ns:CO></ns:AIUTO>'), {
        sourceFile: 'f',
        importId: 'x',
        now: NOW,
        onBatch: async () => undefined,
      }),
    ).rejects.toBeInstanceOf(RegisterFileFormatError);
  });
});

describe('parseAidStream checks every record like user input', () => {
  /** One concession of one component; `instruments` as [aid element, nominal] texts. */
  const concession = (
    id: string,
    { date = '2024-02-10', name = 'ACME S.R.L.', instruments = [['1000.00', '1000.00']] } = {},
  ) =>
    `<ns:AIUTO><ns:DATA_CONCESSIONE>${date}</ns:DATA_CONCESSIONE>` +
    `<ns:DENOMINAZIONE_BENEFICIARIO>${name}</ns:DENOMINAZIONE_BENEFICIARIO>` +
    `<ns:CODICE_FISCALE_BENEFICIARIO>01234567897</ns:CODICE_FISCALE_BENEFICIARIO><ns:COMPONENTI_AIUTO>` +
    `<ns:COMPONENTE_AIUTO><ns:ID_COMPONENTE_AIUTO>${id}</ns:ID_COMPONENTE_AIUTO><ns:STRUMENTI_AIUTO>` +
    instruments
      .map(
        ([element, nominal]) =>
          `<ns:STRUMENTO_AIUTO><ns:ELEMENTO_DI_AIUTO>${element}</ns:ELEMENTO_DI_AIUTO>` +
          `<ns:IMPORTO_NOMINALE>${nominal}</ns:IMPORTO_NOMINALE></ns:STRUMENTO_AIUTO>`,
      )
      .join('') +
    `</ns:STRUMENTI_AIUTO></ns:COMPONENTE_AIUTO></ns:COMPONENTI_AIUTO></ns:AIUTO>`;

  const parse = async (body: string, inline: boolean) => {
    const records: AidRecord[] = [];
    const report = await parseAidStream(xml(body), {
      sourceFile: '2024_02',
      importId: 'x',
      now: NOW,
      inline,
      onBatch: async (batch) => void records.push(...batch),
    });
    return { records, report };
  };

  it('hands out only the records that pass, and reports the others with their reasons', async () => {
    const body = [
      concession('1'),
      concession('2', { date: '2026-13-45' }),
      concession('3', { date: '9999-12-31' }),
      concession('4', { instruments: [['-500000.00', '-500000.00']] }),
      // a negative instrument is not hidden by a larger positive one of the same component
      concession('5', {
        instruments: [
          ['900000.00', '900000.00'],
          ['-500000.00', '-500000.00'],
        ],
      }),
      concession('6', { instruments: [['n.d.', '100.00']] }),
      concession('7', {
        date: '2024-02-29',
        instruments: [
          ['250.00', '250.00'],
          ['0.50', '1'],
        ],
      }),
    ].join('');
    for (const inline of [true, false]) {
      const { records, report } = await parse(body, inline);
      expect(records.map((r) => [r.idComponenteAiuto, r.elementoDiAiutoCents])).toEqual([
        ['1', 100_000],
        ['7', 25_050],
      ]);
      expect(report).toMatchObject({ records: 2, recordsRejected: 5, recordsCapped: 0 });
      expect(report.rejected).toEqual([
        { idComponenteAiuto: '2', reason: 'DATA_NON_VALIDA', message: 'Data di concessione non valida: 2026-13-45' },
        expect.objectContaining({ idComponenteAiuto: '3', reason: 'DATA_FUORI_INTERVALLO' }),
        { idComponenteAiuto: '4', reason: 'IMPORTO_NEGATIVO', message: 'Importo negativo (elemento di aiuto): -500.000,00 €' },
        expect.objectContaining({ idComponenteAiuto: '5', reason: 'IMPORTO_NEGATIVO' }),
        { idComponenteAiuto: '6', reason: 'IMPORTO_NON_VALIDO', message: 'Importo non valido (elemento di aiuto)' },
      ]); // prettier-ignore
    }
  });

  it('keeps an aid whose name is 2.16 million characters, with the name capped', async () => {
    const name = 'ACME S.R.L. '.repeat(180_000);
    for (const inline of [true, false]) {
      const { records, report } = await parse(concession('1', { name }), inline);
      expect(records).toHaveLength(1);
      expect(records[0]!.denominazioneBeneficiario.length).toBe(2_000);
      expect(records[0]!.denominazioneBeneficiario.endsWith('…')).toBe(true);
      expect(report).toMatchObject({ records: 1, recordsRejected: 0, recordsCapped: 1 });
    }
  });

  it('counts every rejected record but lists only the first 100', async () => {
    const body = Array.from({ length: 130 }, (_, i) =>
      concession(String(i + 1), { date: '2026-02-29' }),
    ).join('');
    const { records, report } = await parse(body + concession('999'), true);
    expect(records.map((r) => r.idComponenteAiuto)).toEqual(['999']);
    expect(report.recordsRejected).toBe(130);
    expect(report.rejected).toHaveLength(100);
    expect(report.rejected[99]?.idComponenteAiuto).toBe('100');
  });
});

describe('parseListingHtml', () => {
  it('reads one entry per file with its formats and nid', () => {
    const html =
      '<tr><td>Febbraio 2024</td><td><a data-nid="77" data-filename="OpenData_Aiuti_2024_02_002.xml" data-file-ext="xml">XML</a>' +
      "<a data-file-ext='zip' data-nid='77' data-filename='OpenData_Aiuti_2024_02_002.zip'>ZIP</a></td></tr>" +
      '<a href="/privacy">privacy</a>';
    expect(parseListingHtml(html)).toEqual([
      {
        name: '2024_02_002',
        year: 2024,
        month: 2,
        part: 2,
        fileName: 'OpenData_Aiuti_2024_02_002.xml',
        nid: '77',
        formats: ['xml', 'zip'],
      },
    ]);
  });
});
