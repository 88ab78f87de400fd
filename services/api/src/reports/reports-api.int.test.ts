import ExcelJS from 'exceljs';
import pdfParse from 'pdf-parse';
import request from 'supertest';
import { streams } from '@rna/domain';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { startApiHarness, type ApiHarness } from '../documents/testing';
import { anAid } from '../documents/testing';
import { binaryBody as binary } from '../testing/binary-body';

const CODE = '01234567897';
const QUERY = `taxCodes=${CODE}&deMinimis=false&last3Years=false`;

describe('GET /api/documents/sheet and /pdf', () => {
  let api: ApiHarness;
  const renderer = new ChromiumPdfRenderer({ poolSize: 1 });
  beforeAll(async () => {
    api = await startApiHarness({ pdfRenderer: renderer });
    await api.indexAids([
      anAid({
        idComponenteAiuto: '901',
        denominazioneBeneficiario: 'Officine <Rossi> & Figli',
        elementoDiAiutoCents: 4_321_00,
      }),
      anAid({ idComponenteAiuto: '902', dataConcessione: '2023-11-20', elementoDiAiutoCents: 50_00 }),
    ]);
    await request(api.app)
      .post('/api/logos/-1/pdf-config')
      .set('Authorization', `Bearer ${api.adminToken}`)
      .send({
        primaryColor: '#225588',
        footer1: 'Studio Bianchi',
        footer2: 'Tel. 02 1234567',
        subRenewUrl: 'https://rinnovo.example.com',
      })
      .expect(200);
  });
  afterAll(async () => {
    await api.close();
    await renderer.close();
  });

  const get = (path: string, token: string) =>
    request(api.app).get(path).set('Authorization', `Bearer ${token}`).buffer(true).parse(binary);

  it('gives a free spreadsheet of a search made today and records the download', async () => {
    const client = await api.client({ remainingSearches: 3 });
    await request(api.app)
      .get(`/api/documents?${QUERY}`)
      .set('Authorization', `Bearer ${client.token}`)
      .expect(200);
    const response = await get(`/api/documents/sheet?${QUERY}`, client.token).expect(200);
    // an Italian name that says whose aids and of which day, not report.xlsx
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`filename="?aiuti-${CODE}-\\d{4}-\\d{2}-\\d{2}\\.xlsx"?$`),
    );

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.body as unknown as ArrayBuffer);
    const aids = workbook.getWorksheet('Aiuti');
    expect(aids?.rowCount).toBe(3);
    expect(aids?.getRow(2).getCell(3).value).toBe('Officine <Rossi> & Figli');
    const column = (header: string) => (aids?.getRow(1).values as unknown[]).indexOf(header);
    expect(aids?.getRow(2).getCell(column('Elemento di aiuto')).value).toBe(4321);
    const summary: string[] = [];
    workbook
      .getWorksheet('Riepilogo')
      ?.eachRow((row) => summary.push(`${row.getCell(1).text}=${row.getCell(2).text}`));
    expect(summary).toContain(`Codici fiscali=${CODE}`);

    const { events } = await api.deps.eventStore.readStream(streams.quota(client.id));
    expect(events.map((e) => e.type).slice(-2)).toEqual(['SearchPerformed', 'ReportDownloaded']);
    const me = await request(api.app)
      .get('/api/clients/me')
      .set('Authorization', `Bearer ${client.token}`)
      .expect(200);
    expect(me.body.remainingSearches).toBe(2);
  });

  it('renders a branded, paged PDF with the escaped rows, totals and the De Minimis note', async () => {
    const client = await api.client({ remainingSearches: 3, pdfEnabled: true });
    const response = await get(`/api/documents/pdf?${QUERY}`, client.token).expect(200);
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`filename="?aiuti-${CODE}-\\d{4}-\\d{2}-\\d{2}\\.pdf"?$`),
    );
    expect(response.headers['content-type']).toBe('application/pdf');
    const { text } = await pdfParse(response.body as Buffer);
    expect(text).toContain('Officine <Rossi> & Figli');
    expect(text).toContain('4.321,00 €');
    expect(text).toContain('Studio Bianchi');
    expect(text).toContain('Pagina 1 di');
    expect(text).toContain('2023/2831');
    expect(text).toContain('https://rinnovo.example.com');
    // not searched before: the download is charged like the search
    const { events } = await api.deps.eventStore.readStream(streams.quota(client.id));
    expect(events.map((e) => e.type).slice(-2)).toEqual(['SearchPerformed', 'ReportDownloaded']);
  });

  it('refuses the PDF with P001 to a client without pdfEnabled, but not the spreadsheet', async () => {
    const client = await api.client({ remainingSearches: 3, pdfEnabled: false });
    expect(
      (
        await request(api.app)
          .get(`/api/documents/pdf?${QUERY}`)
          .set('Authorization', `Bearer ${client.token}`)
          .expect(403)
      ).body,
    ).toMatchObject({ code: 'P001' });
    await get(`/api/documents/sheet?${QUERY}`, client.token).expect(200);
  });

  it('gives ADMIN the PDF always', async () => {
    const response = await get(`/api/documents/pdf?${QUERY}`, api.adminToken).expect(200);
    expect((await pdfParse(response.body as Buffer)).text).toContain('Officine <Rossi> & Figli');
  });
});
