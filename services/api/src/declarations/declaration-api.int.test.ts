/**
 * The de minimis self-declaration over HTTP: the PDF lists exactly the aids the headroom counts (the
 * same figures as GET /de-minimis/headroom), names the undertaking and its members, and is refused,
 * charged and audited like a report PDF.
 */
import pdfParse from 'pdf-parse';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import request from 'supertest';
import { formatEuro, streams, type HeadroomDto, type UndertakingGroupDto } from '@rna/domain';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { anAid, startApiHarness, type ApiHarness } from '../documents/testing';
import { binaryBody as binary } from '../testing/binary-body';

jest.setTimeout(60_000);

const ACME = '01234567897';
const BETA = '98765432109';

/** Chromium wraps cells and uses no-break spaces: any run of white space reads as one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const euro = (amount: string) => flat(formatEuro(Number(amount)));
/** A table row's cells in order (the PDF's text puts no space between cells). */
const row = (...cells: string[]) =>
  new RegExp(cells.map((cell) => flat(cell).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(' ?'));

/** The aids of a planned grant on 2025-06-30, whose window runs from 2022-07-01. */
const counted = {
  firstDay: { cor: '7000001', day: '01-07-2022', body: 'Comune di Bergamo', amount: '11.111,11 €' },
  sieg: { cor: '7000002', day: '10-05-2024', body: 'Ente <Porti> & Co', amount: '22.222,22 €' },
  plannedDay: { cor: '7000003', day: '30-06-2025', body: 'CCIAA Milano', amount: '3.333,33 €' },
};
const absent = {
  dayBefore: { cor: '7000004', body: 'Provincia di Pavia', amount: '44.444,44 €' },
  notDeMinimis: { cor: '7000005', body: 'Invitalia Esenzione', amount: '55.555,55 €' },
  agricultural: { cor: '7000006', body: 'AGEA Agricoltura', amount: '5.432,10 €' },
  dayAfter: { cor: '7000007', body: 'Comune di Lodi', amount: '7.777,77 €' },
};
const beta = { cor: '7000008', day: '01-10-2024', body: 'Regione Piemonte', amount: '8.888,88 €' };

describe('GET /api/de-minimis/declaration', () => {
  let api: ApiHarness;
  const renderer = new ChromiumPdfRenderer({ poolSize: 1 });
  beforeAll(async () => {
    api = await startApiHarness({ pdfRenderer: renderer });
    const general = { codRegolamento: 'CE1407/13', desRegolamento: 'Reg. UE 1407/2013 de minimis' };
    await api.indexAids([
      anAid({
        ...general,
        cor: counted.firstDay.cor,
        dataConcessione: '2022-07-01',
        soggettoConcedente: counted.firstDay.body,
        elementoDiAiutoCents: 11_111_11,
      }),
      anAid({
        cor: counted.sieg.cor,
        dataConcessione: '2024-05-10',
        soggettoConcedente: counted.sieg.body,
        codRegolamento: 'CE2832/23',
        desRegolamento: 'Reg. UE 2023/2832 SIEG',
        elementoDiAiutoCents: 22_222_22,
      }),
      anAid({
        cor: counted.plannedDay.cor,
        dataConcessione: '2025-06-30',
        soggettoConcedente: counted.plannedDay.body,
        elementoDiAiutoCents: 3_333_33,
      }),
      anAid({
        ...general,
        cor: absent.dayBefore.cor,
        dataConcessione: '2022-06-30',
        soggettoConcedente: absent.dayBefore.body,
        elementoDiAiutoCents: 44_444_44,
      }),
      anAid({
        cor: absent.notDeMinimis.cor,
        dataConcessione: '2024-01-15',
        soggettoConcedente: absent.notDeMinimis.body,
        codProcedimento: '3',
        desProcedimento: 'Esenzione',
        codRegolamento: 'CE651/14',
        desRegolamento: 'Reg. UE 651/2014',
        elementoDiAiutoCents: 55_555_55,
      }),
      anAid({
        cor: absent.agricultural.cor,
        dataConcessione: '2024-03-01',
        soggettoConcedente: absent.agricultural.body,
        codRegolamento: 'CE1408/13',
        desRegolamento: 'Reg. UE 1408/2013 agricoltura',
        elementoDiAiutoCents: 5_432_10,
      }),
      anAid({
        cor: absent.dayAfter.cor,
        dataConcessione: '2025-07-01',
        soggettoConcedente: absent.dayAfter.body,
        elementoDiAiutoCents: 7_777_77,
      }),
      anAid({
        codiceFiscaleBeneficiario: BETA,
        denominazioneBeneficiario: 'BETA S.P.A.',
        cor: beta.cor,
        dataConcessione: '2024-10-01',
        soggettoConcedente: beta.body,
        elementoDiAiutoCents: 8_888_88,
      }),
    ]);
    await request(api.app)
      .post('/api/logos/-1/pdf-config')
      .set('Authorization', `Bearer ${api.adminToken}`)
      .send({ primaryColor: '#225588', footer1: 'Studio Verdi', footer2: 'Tel. 02 7654321', subRenewUrl: '' })
      .expect(200);
  });
  afterAll(async () => {
    await api.close();
    await renderer.close();
  });

  const declaration = (query: string, token: string) =>
    request(api.app)
      .get(`/api/de-minimis/declaration?${query}`)
      .set('Authorization', `Bearer ${token}`)
      .buffer(true)
      .parse(binary);
  const declarationText = async (query: string, token: string) => {
    const response = await declaration(query, token).expect(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    // named for what it holds, for whom and the day, like every download
    expect(response.headers['content-disposition']).toMatch(
      /dichiarazione-de-minimis-[A-Z0-9_]+(-codici)?-\d{4}-\d{2}-\d{2}\.pdf/,
    );
    return flat((await pdfParse(response.body as Buffer)).text);
  };
  const headroom = async (query: string, token: string) =>
    (
      await request(api.app)
        .get(`/api/de-minimis/headroom?${query}`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200)
    ).body as HeadroomDto;
  const remaining = async (token: string) =>
    (await request(api.app).get('/api/clients/me').set('Authorization', `Bearer ${token}`).expect(200)).body
      .remainingSearches as number;
  const quotaEvents = async (clientId: string) =>
    (await api.deps.eventStore.readStream(streams.quota(clientId))).events;

  it('lists exactly the aids the headroom counts, with its totals and remainder, and blanks for the signer', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const query = `taxCodes=${ACME}&date=2025-06-30&regime=SIEG`;
    const text = await declarationText(query, client.token);

    expect(text).toContain('Dichiarazione sostitutiva relativa agli aiuti «de minimis»');
    expect(text).toContain('artt. 46 e 47 del DPR 28 dicembre 2000, n. 445');
    expect(text).toContain(`dell’impresa ACME S.R.L., codice fiscale ${ACME}`);
    expect(text).toContain('concessione il 30-06-2025 nel regime SIEG');
    expect(text).toContain('Reg. (UE) 2023/2832');
    expect(text).toContain('dal 01-07-2022 al 30-06-2025');
    for (const aid of Object.values(counted)) {
      for (const part of [aid.cor, aid.day, aid.body, aid.amount]) expect(text).toContain(flat(part));
    }
    expect(text).toContain('CE2832/23');
    expect(text).toContain('Reg. UE 1407/2013 de minimis');
    // outside the window, not de minimis, or outside every limit of a SIEG grant (agricultural)
    for (const aid of Object.values(absent)) {
      expect(text).not.toContain(aid.cor);
      expect(text).not.toContain(aid.body);
      expect(text).not.toContain(flat(aid.amount));
    }

    // the same figures as the headroom asked the same way
    const figures = await headroom(query, client.token);
    expect(figures.limits).toHaveLength(1);
    expect(text).toContain(`Residuo concedibile al 30-06-2025: ${euro(figures.headroom)}`);
    const [limit] = figures.limits;
    expect(text).toMatch(
      row(
        'Generale + SIEG (servizi di interesse economico generale)',
        euro(limit!.ceiling),
        euro(limit!.used),
        euro(limit!.remaining),
      ),
    );
    expect(text).toMatch(row('Generale', '2', euro(figures.usedByRegime.GENERAL)));
    expect(text).toMatch(
      row('SIEG (servizi di interesse economico generale)', '1', euro(figures.usedByRegime.SIEG)),
    );
    expect(figures.headroom).toBe('713333.34');

    // what only the signer can state, the draft's warning, the brand and the page numbers
    expect(text).toContain('Imprese collegate non indicate');
    expect(text).toContain('SIAN per l’agricoltura, SIPA per la pesca');
    expect(text).toContain('Fusioni, acquisizioni e scissioni');
    expect(text).toContain('Luogo e data');
    expect(text).toContain('Firma del legale rappresentante');
    expect(text).toContain('Bozza predisposta con i dati del Registro nazionale degli aiuti di Stato (RNA)');
    expect(text).toContain('prevale quel modello');
    expect(text).toContain('Studio Verdi');
    expect(text).toContain('Tel. 02 7654321');
    expect(text).toMatch(/Pagina 1 di \d/);
  });

  it('has the portal’s document properties, like a report, and nothing of Chromium’s', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const response = await declaration(`taxCodes=${ACME}&date=2025-06-30&regime=SIEG`, client.token).expect(
      200,
    );
    const bytes = response.body as Buffer;
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(pdf.getTitle()).toBe(`Dichiarazione sostitutiva relativa agli aiuti «de minimis» – ${ACME}`);
    expect(pdf.getSubject()).toContain('DPR 445/2000');
    expect(pdf.getCreator()).toBe('Portale Aiuti di Stato');
    expect(pdf.getProducer()).toBe('Portale Aiuti di Stato');
    expect(pdf.getAuthor()).toBeTruthy();
    expect(pdf.catalog.lookup(PDFName.of('Lang'), PDFString).decodeText()).toBe('it-IT');
    // made when the portal made it (its clock), to the second a PDF date holds
    expect(pdf.getCreationDate()?.getTime()).toBe(Math.floor(api.deps.clock().getTime() / 1000) * 1000);
    expect(bytes.toString('latin1')).not.toMatch(/HeadlessChrome|Skia/);
  });

  it('for a group names its members and lists every member’s aids, with the group’s figures', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const group = (
      await request(api.app)
        .post('/api/groups')
        .set('Authorization', `Bearer ${client.token}`)
        .send({ name: 'Gruppo <Acme>', members: [{ taxCode: ACME }, { taxCode: BETA }] })
        .expect(201)
    ).body as UndertakingGroupDto;
    const query = `group=${group.id}&date=2025-06-30&regime=GENERAL`;
    const text = await declarationText(query, client.token);

    expect(text).toContain('dell’impresa unica «Gruppo <Acme>», composta da:');
    expect(text).toMatch(row(ACME, 'ACME S.R.L.'));
    expect(text).toMatch(row(BETA, 'BETA S.P.A.'));
    // a general grant is capped with agricultural aids too: the agricultural aid is declared now
    for (const aid of [...Object.values(counted), beta, { ...absent.agricultural, day: '01-03-2024' }]) {
      for (const part of [aid.cor, aid.day, aid.body, aid.amount]) expect(text).toContain(flat(part));
    }
    for (const aid of [absent.dayBefore, absent.notDeMinimis, absent.dayAfter]) {
      expect(text).not.toContain(aid.cor);
    }
    const figures = await headroom(query, client.token);
    expect(text).toContain(`Residuo concedibile al 30-06-2025: ${euro(figures.headroom)}`);
    for (const limit of figures.limits) {
      expect(text).toMatch(row(euro(limit.ceiling), euro(limit.used), euro(limit.remaining)));
    }
    expect(text).toMatch(row('Generale', '3', euro(figures.usedByRegime.GENERAL)));
    expect(text).toMatch(row('Agricoltura', '1', euro(figures.usedByRegime.AGRICULTURE)));
  });

  it('is charged like a report PDF (a second download the same day is free) and audited as a declaration', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const query = `taxCodes=${ACME}&date=2025-06-30&regime=GENERAL`;
    await declaration(query, client.token).expect(200);
    expect(await remaining(client.token)).toBe(4);
    const first = await quotaEvents(client.id);
    expect(first.slice(-2).map((event) => event.type)).toEqual(['SearchPerformed', 'ReportDownloaded']);
    expect(first.at(-1)?.data).toMatchObject({ kind: 'declaration', taxCodes: [ACME] });

    await declaration(query.replace('GENERAL', 'SIEG'), client.token).expect(200);
    expect(await remaining(client.token)).toBe(4);
    const second = await quotaEvents(client.id);
    expect(second).toHaveLength(first.length + 1);
    expect(second.at(-1)).toMatchObject({ type: 'ReportDownloaded', data: { kind: 'declaration' } });
  });

  it('refuses like the headroom and the reports, charging nothing: P001, D002, D001, I003', async () => {
    const noPdf = await api.client({ remainingSearches: 5, pdfEnabled: false });
    const refused = await request(api.app)
      .get(`/api/de-minimis/declaration?taxCodes=${ACME}&date=2025-06-30`)
      .set('Authorization', `Bearer ${noPdf.token}`)
      .expect(403);
    expect(refused.body).toMatchObject({ code: 'P001' });
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const code = async (query: string, status: number) =>
      (
        await request(api.app)
          .get(`/api/de-minimis/declaration?${query}`)
          .set('Authorization', `Bearer ${client.token}`)
          .expect(status)
      ).body.code as string;
    expect(await code(`taxCodes=${ACME}&date=2025-06-30&regime=EDILIZIA`, 400)).toBe('D002');
    expect(await code(`taxCodes=${ACME}&date=2023-12-31`, 400)).toBe('D001');
    expect(await code(`group=nessuno&date=2025-06-30`, 404)).toBe('I003');
    expect(await remaining(noPdf.token)).toBe(5);
    expect(await remaining(client.token)).toBe(5);
  });
});
