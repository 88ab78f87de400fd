/**
 * Browser journey of the bulk search (Ricerca massiva): a client uploads a CSV of a few codes (one
 * repeated, one with a wrong check digit), sees the preview and what it costs, confirms, follows the job
 * to "Completata" across a reload, is told on the home page and by mail, downloads the Excel workbook
 * (a summary row per company) and the PDF; a file that is no spreadsheet is refused and costs nothing.
 * One portal, steps in order.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { BrowserContext, Page } from 'playwright-core';
import { checkTaxCode, formatInteger } from '@rna/domain';
import {
  ADMIN,
  captureScreen,
  describeViolations,
  downloadByButton,
  expectMessage,
  expectSignedIn,
  inviteClientByApi,
  newContext,
  pdfText,
  signIn,
  signInByApi,
  startWorld,
  syncArchiveByApi,
  taxCodesByAidCount,
  until,
  type InvitedClient,
  type World,
} from './harness';

jest.setTimeout(180_000);

const SEARCHES = 20;
const NOT_A_SPREADSHEET =
  'Il file non è un foglio Excel (.xlsx) o un file CSV: ne carichi uno in uno di questi formati'; // errors.B001

let world: World;
let context: BrowserContext;
let client: Page;
let invited: InvitedClient;
let files: string;
/** the codes of the list: two companies of the archive, and a code whose check digit is wrong */
let heaviest: string;
let second: string;
let wrong: string;

/** The same code with another check digit (or letter): still well formed, but failing the check. */
function withWrongCheckDigit(code: string): string {
  const last = code.at(-1) ?? '0';
  const candidates = /\d/.test(last) ? '0123456789' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const replacement of candidates) {
    const changed = code.slice(0, -1) + replacement;
    if (replacement !== last && checkTaxCode(changed) === 'invalid') return changed;
  }
  throw new Error(`no wrong check digit for ${code}`);
}

/** A figure of the preview, by its label. */
async function previewFigure(page: Page, label: string): Promise<string> {
  const term = page.locator('.bulk-preview dt', { hasText: label });
  return ((await term.locator('xpath=following-sibling::dd[1]').textContent()) ?? '').trim();
}

/** The cell values of a worksheet's rows, as text. */
function rowsOf(sheet: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    rows.push(values.map((value) => (value === null || value === undefined ? '' : String(value))));
  });
  return rows;
}

beforeAll(async () => {
  world = await startWorld();
  files = await mkdtemp(path.join(os.tmpdir(), 'rna-e2e-bulk-'));
  await syncArchiveByApi(await signInByApi(world.portal.url, ADMIN.email, ADMIN.password));
  [heaviest, second] = taxCodesByAidCount(world.archive.truth) as [string, string];
  if (!heaviest || !second) throw new Error('the generated archive has fewer than two beneficiaries');
  wrong = withWrongCheckDigit(heaviest);
  const admin = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
  invited = await inviteClientByApi(admin, 'studio.verdi@example.it', {
    searches: SEARCHES,
    pdfEnabled: true,
  });
  context = await newContext(world.browser, world.portal.url);
  client = await context.newPage();
});

afterAll(async () => {
  await world?.stop();
  if (files) await rm(files, { recursive: true, force: true });
});

describe('bulk search in a real browser', () => {
  it('a client finds the page in the navigation bar, with what a list must contain', async () => {
    await signIn(client, invited.email, invited.password);
    await expectSignedIn(client, invited.email);
    await client.getByText(`Ricerche: ${SEARCHES} / ${SEARCHES}`).waitFor();
    await client.getByRole('navigation').getByRole('link', { name: 'Ricerca massiva' }).click();
    await client.getByRole('heading', { name: 'Ricerca massiva', level: 1 }).waitFor();
    expect(await client.title()).toBe('Ricerca massiva – Portale Aiuti di Stato');
    await client.getByText(/al massimo 5 MB/).waitFor();
    await client.getByText(/Al massimo 5\.000 codici fiscali/).waitFor();
    await client.getByText('Non ha ancora avviato ricerche massive').waitFor();
    await captureScreen(client, 'bulk-empty', world.accessibility);
  });

  it('a file that is no spreadsheet is refused in Italian and costs nothing', async () => {
    const pdf = path.join(files, 'elenco.pdf');
    await writeFile(pdf, '%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    await client.getByLabel('File dell’elenco (.xlsx o .csv)').setInputFiles(pdf);
    await expectMessage(client, NOT_A_SPREADSHEET);
    expect(await client.getByRole('heading', { name: /^Anteprima/ }).count()).toBe(0);
    await client.getByText('Non ha ancora avviato ricerche massive').waitFor();
    await client.getByText(`Ricerche: ${SEARCHES} / ${SEARCHES}`).waitFor();
  });

  it('uploads a CSV (a repeated code, a wrong check digit), sees the preview and its cost, and confirms', async () => {
    const csv = path.join(files, 'clienti.csv');
    await writeFile(csv, ['Codice fiscale', heaviest, second, heaviest, wrong, ''].join('\r\n'));
    await client.getByLabel('File dell’elenco (.xlsx o .csv)').setInputFiles(csv);

    const heading = client.getByRole('heading', { name: 'Anteprima: clienti.csv' });
    await heading.waitFor();
    // the heading takes the focus, so that a screen reader starts there
    await until(
      async () => (await client.evaluate('document.activeElement?.textContent')) === 'Anteprima: clienti.csv',
      'the focus on the preview',
    );
    expect(await previewFigure(client, 'Codici fiscali da cercare')).toBe('3');
    expect(await previewFigure(client, 'Duplicati scartati')).toBe('1');
    expect(await previewFigure(client, 'Imprese non ancora cercate oggi')).toBe('3');
    expect(await previewFigure(client, 'Ricerche disponibili')).toBe(formatInteger(SEARCHES));
    await client.getByText('Costo: 3 ricerche').waitFor();
    const warnings = client.getByRole('list', {
      name: 'Carattere di controllo errato: questi codici saranno cercati comunque',
    });
    await warnings.getByText(wrong, { exact: true }).waitFor();
    expect(await warnings.getByRole('listitem').count()).toBe(1);
    await captureScreen(client, 'bulk-preview', world.accessibility);

    await client.getByRole('button', { name: 'Avvia la ricerca' }).click();
    await expectMessage(client, 'Ricerca massiva avviata: riceverà un’email quando è pronta');
    await client.getByRole('row', { name: /clienti\.csv/ }).waitFor();
    await client.getByText(`Ricerche: ${SEARCHES - 3} / ${SEARCHES}`).waitFor();
  });

  it('follows the job across a reload to "Completata", with its figures and downloads', async () => {
    // the state is the server's: a reload (or leaving the page) loses nothing
    await client.reload();
    await client.getByRole('heading', { name: 'Ricerca massiva', level: 1 }).waitFor();
    const row = client.getByRole('row', { name: /clienti\.csv/ });
    await row.waitFor();
    const seen = new Set<string>();
    await until(
      async () => {
        // read in one go: the bar is gone the moment the job completes, between a count and a read
        const texts = await row
          .getByRole('progressbar')
          .evaluateAll((bars) => bars.map((bar) => bar.getAttribute('aria-valuetext') ?? ''));
        for (const text of texts) seen.add(text);
        return (await row.getByText('Completata').count()) > 0;
      },
      'the job completed',
      90_000,
    );
    // whatever was seen of the progress counted the three codes
    for (const text of seen) expect(text).toMatch(/^\d \/ 3$/);
    expect(await row.textContent()).toMatch(/\d+ impres[ae] con aiuti/);
    expect(await row.textContent()).toMatch(/oltre il massimale/);
    expect(await row.textContent()).toContain('3 ricerche');
    await row.getByText(/^disponibile fino al \d{2}-\d{2}-\d{4}$/).waitFor();
    await captureScreen(client, 'bulk-jobs', world.accessibility, row);
  });

  it('the home page and a mail say the result is ready', async () => {
    await client.getByRole('link', { name: /Portale Aiuti di Stato/ }).click();
    await client.getByRole('heading', { name: 'Ricerca aiuti di Stato' }).waitFor();
    const notice = client.getByText(
      /^La ricerca massiva «clienti\.csv» è pronta: 3 imprese, \d+ oltre il massimale$/,
    );
    await notice.waitFor();
    await captureScreen(client, 'home-bulk-ready', world.accessibility);

    await until(
      async () =>
        world.smtp.received.some(
          (mail) =>
            mail.to.includes(invited.email) && /ricerca massiva/i.test(`${mail.subject}\n${mail.text}`),
        ),
      'the mail of the finished bulk search',
    );

    await client.getByRole('link', { name: 'Vai alla ricerca massiva' }).click();
    await client.getByRole('heading', { name: 'Ricerca massiva', level: 1 }).waitFor();
  });

  it('downloads the workbook, with a summary row per company, and the PDF; then home says no more', async () => {
    const sheet = await downloadByButton(client, 'Scarica Excel di clienti.csv', files);
    expect(path.basename(sheet)).toBe('ricerca-massiva-clienti.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(sheet);
    // the summary: the sheet where each code of the list has a row of its own
    const codes = [heaviest, second, wrong];
    const summary = workbook.worksheets.find((candidate) => {
      const rows = rowsOf(candidate);
      return codes.every((code) => rows.filter((cells) => cells.includes(code)).length === 1);
    });
    if (!summary) throw new Error(`no sheet of ${path.basename(sheet)} has one row per company`);
    const rows = rowsOf(summary);
    const nameOf = (code: string) =>
      world.archive.truth.find((aid) => aid.codiceFiscaleBeneficiario === code)?.denominazioneBeneficiario;
    for (const code of [heaviest, second]) {
      const name = nameOf(code);
      expect(name).toBeTruthy();
      expect(rows.find((cells) => cells.includes(code))).toContain(name);
    }
    // and every aid of the two companies somewhere in the workbook
    const everything = workbook.worksheets.flatMap((candidate) => rowsOf(candidate).flat());
    for (const aid of world.archive.truth.filter((record) =>
      [heaviest, second].includes(record.codiceFiscaleBeneficiario),
    ))
      expect(everything).toContain(aid.idComponenteAiuto);

    const pdf = await downloadByButton(client, 'Scarica PDF di clienti.csv', files);
    expect(path.basename(pdf)).toBe('ricerca-massiva-clienti.pdf');
    const text = await pdfText(pdf);
    expect(text).toContain(heaviest);
    expect(text).toContain(second);

    // downloaded: the home page no longer announces it
    await client.getByRole('link', { name: /Portale Aiuti di Stato/ }).click();
    await client.getByRole('heading', { name: 'Ricerca aiuti di Stato' }).waitFor();
    await until(
      async () => (await client.getByText(/^La ricerca massiva «clienti\.csv» è pronta/).count()) === 0,
      'the notice gone once the result was downloaded',
      5_000,
    );
    // and the downloads cost nothing
    await client.getByText(`Ricerche: ${SEARCHES - 3} / ${SEARCHES}`).waitFor();
  });

  it('has no serious or critical accessibility violation on any screen', () => {
    expect(world.accessibility.size).toBeGreaterThan(0);
    expect(describeViolations(world.accessibility)).toEqual([]);
  });
});
