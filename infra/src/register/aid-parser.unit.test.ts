import { Readable } from 'node:stream';
import type { AidRecord } from '@rna/domain';
import { decimalToCents, parseAidStream, RegisterFileFormatError } from './aid-parser';
import { parseListingHtml } from './listing';

const xml = (body: string) =>
  Readable.from([
    Buffer.from(
      `<?xml version="1.0"?><ns:LISTA_AIUTI xmlns:ns="http://www.rna.it/RNA_aiuto/schema">${body}</ns:LISTA_AIUTI>`,
    ),
  ]);

describe('decimalToCents', () => {
  it('converts register decimals exactly', () => {
    expect(decimalToCents('10000.00')).toBe(1_000_000);
    expect(decimalToCents('0.1')).toBe(10);
    expect(decimalToCents('1234,56')).toBe(123_456);
    expect(decimalToCents('19.999')).toBe(2000);
    expect(decimalToCents('')).toBe(0);
  });
});

describe('parseAidStream', () => {
  it('sums the instruments of each component and strips a namespace prefix', async () => {
    const records: unknown[] = [];
    const report = await parseAidStream(
      xml(
        '<ns:AIUTO><ns:COR>9</ns:COR><ns:CODICE_FISCALE_BENEFICIARIO>00743110157</ns:CODICE_FISCALE_BENEFICIARIO>' +
          '<ns:COMPONENTI_AIUTO><ns:COMPONENTE_AIUTO><ns:ID_COMPONENTE_AIUTO>91</ns:ID_COMPONENTE_AIUTO><ns:COD_PROCEDIMENTO>1</ns:COD_PROCEDIMENTO>' +
          '<ns:STRUMENTI_AIUTO><ns:STRUMENTO_AIUTO><ns:ELEMENTO_DI_AIUTO>100.10</ns:ELEMENTO_DI_AIUTO><ns:IMPORTO_NOMINALE>200</ns:IMPORTO_NOMINALE></ns:STRUMENTO_AIUTO>' +
          '<ns:STRUMENTO_AIUTO><ns:ELEMENTO_DI_AIUTO>0.05</ns:ELEMENTO_DI_AIUTO><ns:IMPORTO_NOMIN>1.5</ns:IMPORTO_NOMIN></ns:STRUMENTO_AIUTO></ns:STRUMENTI_AIUTO>' +
          '</ns:COMPONENTE_AIUTO></ns:COMPONENTI_AIUTO></ns:AIUTO>',
      ),
      { sourceFile: '2024_01', importId: 'x', onBatch: async (batch) => void records.push(...batch) },
    );
    expect(records).toEqual([
      expect.objectContaining({
        idComponenteAiuto: '91',
        cor: '9',
        codiceFiscaleBeneficiario: '00743110157',
        codProcedimento: '1',
        elementoDiAiutoCents: 10_015,
        importoNominaleCents: 20_150,
        sourceFile: '2024_01',
      }),
    ]);
    expect(report.truncatedTags).toEqual(['IMPORTO_NOMIN→IMPORTO_NOMINALE']);
  });

  it('gives the same records, batches and report on a worker thread as inline', async () => {
    const aid = (id: number, tax: string) =>
      `<ns:AIUTO><ns:CODICE_FISCALE_BENEFICIARIO>${tax}</ns:CODICE_FISCALE_BENEFICIARIO>` +
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

  it('rejects ill-formed XML with the line, inline or not', async () => {
    for (const inline of [true, false]) {
      const error = await parseAidStream(xml('<ns:AIUTO>\n<ns:COR>1</ns:CO></ns:AIUTO>'), {
        sourceFile: 'f',
        importId: 'x',
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
        onBatch: async () => undefined,
      }),
    ).rejects.toBeInstanceOf(RegisterFileFormatError);
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
