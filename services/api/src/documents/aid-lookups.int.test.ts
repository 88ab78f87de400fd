import ExcelJS from 'exceljs';
import request from 'supertest';
import { streams, type AidRecord } from '@rna/domain';
import type { AidIndex, AidSearch } from '@rna/infra';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { anAid, startApiHarness, type ApiHarness } from './testing';
import { binaryBody as binary } from '../testing/binary-body';

const CODE = '01234567897';
const OTHER = '09876543210';
const query = (code: string, filters = 'deMinimis=false&last3Years=false') => `taxCodes=${code}&${filters}`;

/** The harness's aid index, counting the look-ups the API asks of it. */
function countLookUps(api: ApiHarness): AidSearch[] {
  const calls: AidSearch[] = [];
  const index: AidIndex = api.deps.aidIndex;
  api.deps.aidIndex = Object.assign(Object.create(index) as AidIndex, {
    search: (search: AidSearch): Promise<AidRecord[]> => {
      calls.push(search);
      return index.search(search);
    },
  });
  return calls;
}

describe('a search, then its Excel and PDF, look the aids up once', () => {
  let api: ApiHarness;
  let lookUps: AidSearch[];
  const renderer = new ChromiumPdfRenderer({ poolSize: 1 });
  beforeAll(async () => {
    api = await startApiHarness({ pdfRenderer: renderer });
    lookUps = countLookUps(api);
    await api.indexAids([
      anAid({ idComponenteAiuto: '701', codiceFiscaleBeneficiario: CODE, dataConcessione: '2024-05-10' }),
      anAid({ idComponenteAiuto: '702', codiceFiscaleBeneficiario: CODE, dataConcessione: '2015-01-10' }),
      anAid({ idComponenteAiuto: '801', codiceFiscaleBeneficiario: OTHER }),
    ]);
  });
  afterAll(async () => {
    await api.close();
    await renderer.close();
  });
  beforeEach(() => {
    lookUps.length = 0;
  });

  const get = (path: string, token: string) =>
    request(api.app).get(`/api/${path}`).set('Authorization', `Bearer ${token}`);

  /** The aid rows of the search's report.xlsx. */
  const sheetRows = async (token: string, search: string) => {
    const sheet = await get(`documents/sheet?${search}`, token).buffer(true).parse(binary).expect(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.body as ArrayBuffer);
    return (workbook.getWorksheet('Aiuti')?.rowCount ?? 0) - 1;
  };

  it('reuses the search’s aids for its reports, whatever their filters, and still records every download', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const found = await get(`documents?${query(CODE)}`, client.token).expect(200);
    expect(found.body.rows).toHaveLength(2);
    // the display filters apply to the aids kept: the 2015 aid is older than 3 years
    expect(await sheetRows(client.token, query(CODE, 'deMinimis=false&last3Years=true'))).toBe(1);
    await get(`documents/pdf?${query(CODE)}`, client.token).expect(200);
    expect(lookUps).toEqual([{ taxCodes: [CODE] }]);

    const { events } = await api.deps.eventStore.readStream(streams.quota(client.id));
    expect(events.slice(-3).map((e) => e.type)).toEqual([
      'SearchPerformed',
      'ReportDownloaded',
      'ReportDownloaded',
    ]);
  });

  it('charges and refuses a client as without it: aids another user looked up are not free', async () => {
    await get(`documents?${query(OTHER)}`, api.adminToken).expect(200);
    const paying = await api.client({ remainingSearches: 1 });
    const paid = await get(`documents?${query(OTHER)}`, paying.token).expect(200);
    expect(paid.body.remainingSearches).toBe(0);
    const spent = await api.client({ remainingSearches: 0 });
    const refused = await get(`documents?${query(OTHER)}`, spent.token).expect(429);
    expect(refused.body.code).toBe('U004');
    expect(lookUps).toEqual([{ taxCodes: [OTHER] }]);
    const { events } = await api.deps.eventStore.readStream(streams.quota(spent.id));
    expect(events.at(-1)?.type).toBe('SearchRefused');
  });

  it('sees the aids a sync indexed after the search: the report after the change has them', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    await get(`documents?${query(CODE)}`, client.token).expect(200);
    // what the projector does when a sync brings a new aid of the company
    await api.indexAids([anAid({ idComponenteAiuto: '703', codiceFiscaleBeneficiario: CODE })]);
    lookUps.length = 0;
    expect(await sheetRows(client.token, query(CODE))).toBe(3);
    await get(`documents/pdf?${query(CODE)}`, client.token).expect(200);
    expect(lookUps).toEqual([{ taxCodes: [CODE] }]);
  });
});
