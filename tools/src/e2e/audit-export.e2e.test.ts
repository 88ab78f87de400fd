/**
 * Browser journey of the audit (issue 33), at 1280 px and then at 390 px: a client searches one code,
 * three codes and thirty codes, the administrator lowers its allowance, and a further search is
 * refused. The administrator opens «Registro delle attività», picks the client and reads what an
 * auditor reads: times in Rome's clock and Italian format, the client by its address, Italian words,
 * newest first, a reversed date range refused in words; at 390 px nothing wider than the phone. The
 * Excel export downloaded at each width says the same, row for row. One portal, steps in order.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { BrowserContext, Page } from 'playwright-core';
import { partitaIvaCheckDigit, type AuditHistoryDto } from '@rna/domain';
import {
  ADMIN,
  captureScreen,
  describeViolations,
  DESKTOP,
  downloadByButton,
  expectSignedIn,
  inviteClientByApi,
  MOBILE,
  newContext,
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

const CLIENT_EMAIL = 'studio.bianchi@example.it';
const REFUSED = 'Ricerche disponibili esaurite, contatti l’amministratore'; // errors.U004
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/;
const ENUM_WORDS = /\b(ARCHIVE|LIVE|CLIENT|ADMIN|SYSTEM|SEARCH|ALLOWANCE|REFUSAL|DOWNLOAD|REFUND)\b/;

let world: World;
let context: BrowserContext;
let admin: Page;
let invited: InvitedClient;
let downloads: string;
/** the thirty codes of the multiple search */
let many: string[];
/** the history as the API keeps it, newest first: what the screen and the file must show */
let truth: AuditHistoryDto;

/** A partita IVA with a valid check digit, made from a number (not in the archive: no aid). */
const partitaIva = (n: number): string => {
  const first = String(80_000_000_00 + n).padStart(10, '0');
  return `${first}${partitaIvaCheckDigit(first)}`;
};

/** Rome's wall clock as the portal writes it on screen: dd-mm-yyyy hh:mm. */
function romeText(ms: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('it-IT', {
      timeZone: 'Europe/Rome',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day}-${parts.month}-${parts.year} ${parts.hour}:${parts.minute}`;
}

/** The server's clock moves on between the client's actions, so each has its own minute. */
function later(minutes: number): void {
  world.advanceServerClock(minutes * 60_000);
}

beforeAll(async () => {
  world = await startWorld();
  downloads = await mkdtemp(path.join(os.tmpdir(), 'rna-e2e-audit-'));
  const api = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
  await syncArchiveByApi(api);
  const known = taxCodesByAidCount(world.archive.truth);
  invited = await inviteClientByApi(api, CLIENT_EMAIL, { searches: 40 });
  many = Array.from({ length: 30 }, (_, i) => partitaIva(i + 1));
  const search = async (codes: readonly string[]) => {
    // a new sign-in each time: the server's clock has moved past the previous token
    const own = await signInByApi(world.portal.url, invited.email, invited.password);
    return own.call('GET', `/documents?taxCodes=${codes.join(',')}`);
  };
  later(17);
  await search(known.slice(0, 1));
  later(23);
  await search(known.slice(1, 4));
  later(31);
  await search(many);
  later(29);
  const again = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
  await again.call('PUT', `/clients/${invited.id}/limits`, {
    availableYearlySearches: 40,
    remainingSearches: 1,
    endDate: Date.now() + 200 * 86_400_000,
  });
  later(13);
  await expect(search([partitaIva(101), partitaIva(102)])).rejects.toThrow(/U004/);
  const audit = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
  truth = await audit.call<AuditHistoryDto>('GET', `/audit/clients/${invited.id}/history?order=desc`);

  context = await newContext(world.browser, world.portal.url);
  admin = await context.newPage();
});

afterAll(async () => {
  await world?.stop();
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

/** The history table as shown: one record per row, header → text (the cells, not the phone's labels). */
async function shownRows(page: Page): Promise<Record<string, string>[]> {
  const table = page.getByRole('table', { name: 'Cronologia' });
  return table.evaluate((element) => {
    const headers = [...element.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    return [...element.querySelectorAll('tbody tr')]
      .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? ''))
      .filter((cells) => cells.length === headers.length)
      .map((cells) =>
        Object.fromEntries(headers.map((header, i) => [header.replace(/[▲▼↕]/g, '').trim(), cells[i]!])),
      );
  });
}

/** The boxes in the page's main region that run past the window's left or right edge. */
async function widerThanWindow(page: Page): Promise<string[]> {
  return page.locator('#main').evaluate((main) => {
    const width = (globalThis as unknown as { innerWidth: number }).innerWidth;
    const out: string[] = [];
    for (const element of [main, ...main.querySelectorAll('*')]) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 0.5 || box.left < -0.5)
        out.push(
          `${element.tagName.toLowerCase()}.${element.className}: ${Math.round(box.left)}–${Math.round(box.right)} px`,
        );
    }
    return out;
  });
}

async function openAudit(page: Page, viaMenu: boolean): Promise<void> {
  if (viaMenu) {
    await page.getByRole('button', { name: 'Apri il menu' }).click();
    await page.getByRole('menuitem', { name: 'Registro delle attività' }).click();
  } else {
    await page
      .getByRole('navigation', { name: 'Menu principale' })
      .getByRole('link', { name: 'Registro delle attività' })
      .click();
  }
  await page.getByRole('heading', { name: 'Registro delle attività' }).waitFor();
  await page.getByLabel('Utente').selectOption({ label: CLIENT_EMAIL });
  const rows = page.getByRole('table', { name: 'Cronologia' }).locator('tbody tr');
  await until(async () => (await shownRows(page)).length === truth.entries.length, 'the client’s history');
  await rows.first().waitFor();
}

/** What the screen must say, whatever the width. */
async function expectReadableHistory(page: Page): Promise<Record<string, string>[]> {
  const rows = await shownRows(page);
  const text = (await page.locator('#main').innerText()).replace(/\s+/g, ' ');
  // Rome's clock, Italian format, newest first: the same minutes as the API's instants
  expect(rows.map((row) => row['Data e ora'])).toEqual(truth.entries.map((entry) => romeText(entry.at)));
  expect(truth.entries.map((entry) => entry.at)).toEqual(
    [...truth.entries.map((e) => e.at)].sort((a, b) => b - a),
  );
  // (the client's five steps a quarter of an hour or more apart: five different minutes)
  expect(new Set(rows.slice(0, 5).map((row) => row['Data e ora'])).size).toBe(5);
  // no raw instants, ids or enum words anywhere on the screen
  expect(text).not.toMatch(ISO_DAY);
  expect(text).not.toMatch(/T\d{2}:\d{2}/);
  expect(text).not.toMatch(UUID);
  expect(text).not.toMatch(ENUM_WORDS);
  // who: the client's address for its own searches, the administrator's for the allowance change
  const kinds = rows.map((row) => row['Tipo']);
  expect(kinds.slice(0, 5)).toEqual(['Rifiuto', 'Abbonamento', 'Ricerca', 'Ricerca', 'Ricerca']);
  expect(rows[0]!['Eseguito da']).toBe(`${CLIENT_EMAIL} (Cliente)`);
  expect(rows[1]!['Eseguito da']).toBe(`${ADMIN.email} (Amministratore)`);
  expect(rows[2]!['Eseguito da']).toBe(`${CLIENT_EMAIL} (Cliente)`);
  expect(rows[0]!['Dettaglio']).toBe(`U004: ${REFUSED}`);
  expect(rows[1]!['Dettaglio']).toMatch(/^1\/40 ricerche fino al \d{2}-\d{2}-\d{4}$/);
  // thirty codes fold into their count; three are read in line
  expect(rows[2]!['Codici fiscali']).toMatch(/^30 codici fiscali/);
  expect((rows[3]!['Codici fiscali'] ?? '').split(', ')).toHaveLength(3);
  expect(rows[2]!['Costo']).toBe('30');
  return rows;
}

/** A reversed range is said in words, and neither lists nothing nor exports. */
async function expectReversedRangeRefused(page: Page): Promise<void> {
  const since = page.getByLabel('Dal', { exact: true });
  const until_ = page.getByLabel('Al (stato a questa data)');
  await since.fill('12-03-2026');
  await since.press('Tab');
  await until_.fill('10-03-2026');
  await until_.press('Tab');
  const alert = page.getByRole('alert').filter({ hasText: 'La data «Dal» è successiva alla data «Al»' });
  await alert.waitFor();
  expect(await page.getByRole('table', { name: 'Cronologia' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Esporta Excel' }).isDisabled()).toBe(true);
  await since.fill('');
  await since.press('Tab');
  await until_.fill('');
  await until_.press('Tab');
  await alert.waitFor({ state: 'detached' });
  await until(async () => (await shownRows(page)).length === truth.entries.length, 'the history again');
}

/** A date cell of the sheet shows its UTC fields: Rome's wall clock, written as such. */
function cellText(value: ExcelJS.CellValue): string {
  if (!(value instanceof Date)) return String(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(value.getUTCDate())}-${pad(value.getUTCMonth() + 1)}-${value.getUTCFullYear()} ${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}`;
}

/** The export downloaded with the screen's button, read as an auditor's Excel reads it. */
async function expectExportLikeScreen(
  page: Page,
  shown: Record<string, string>[],
  width: string,
): Promise<void> {
  const dir = path.join(downloads, width);
  const file = await downloadByButton(page, 'Esporta Excel', await mkdtemp(dir));
  const name = path.basename(file);
  expect(name).toMatch(/^registro-attivita-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.getWorksheet('Registro delle attività');
  if (!sheet) throw new Error('no «Registro delle attività» sheet');
  const headers = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(String);
  const rows: Record<string, ExcelJS.CellValue>[] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    rows.push(Object.fromEntries(headers.map((header, i) => [header, row.getCell(i + 1).value])));
  });
  expect(rows).toHaveLength(shown.length);
  // real dates, showing Rome's minutes as the screen does, newest first
  for (const row of rows) expect(row['Data e ora']).toBeInstanceOf(Date);
  const times = rows.map((row) => cellText(row['Data e ora']));
  expect(times).toEqual(truth.entries.map((entry) => romeText(entry.at)));
  expect(times).toEqual(shown.map((row) => row['Data e ora']));
  expect(sheet.getCell('A2').numFmt).toBe('dd-mm-yyyy hh:mm');
  // who, what, in Italian words; no id and no enum word in any cell
  expect(rows.map((row) => row['Tipo'])).toEqual(shown.map((row) => row['Tipo']));
  expect(rows.map((row) => row['Eseguito da'])).toEqual(shown.map((row) => row['Eseguito da']));
  for (const row of rows)
    for (const value of Object.values(row)) {
      if (value instanceof Date || value === null) continue;
      expect(String(value)).not.toMatch(UUID);
      expect(String(value)).not.toMatch(ENUM_WORDS);
      expect(String(value)).not.toMatch(ISO_DAY);
    }
  // no cell holds dozens of codes run together: the thirty are one per row on their own sheet
  for (const row of rows)
    expect(
      String(row['Codici fiscali'] ?? '').match(/\b\d{11}\b|\b[A-Z0-9]{16}\b/g)?.length ?? 0,
    ).toBeLessThanOrEqual(3);
  expect(rows[2]!['N. codici']).toBe(30);
  const perCode = workbook.getWorksheet('Codici fiscali');
  if (!perCode) throw new Error('no «Codici fiscali» sheet');
  const listed: string[] = [];
  perCode.eachRow((row, number) => {
    if (number > 1) listed.push(String(row.getCell(4).value));
  });
  for (const code of many) expect(listed).toContain(code);
}

describe('the audit of a client, read by an administrator', () => {
  it('at 1280 px: Rome’s times, addresses, Italian words, newest first; a reversed range is refused', async () => {
    await admin.setViewportSize(DESKTOP);
    await signIn(admin, ADMIN.email, ADMIN.password);
    await expectSignedIn(admin, ADMIN.email);
    await openAudit(admin, false);
    await expectReadableHistory(admin);
    await captureScreen(admin, 'audit-client', world.accessibility);
    await expectReversedRangeRefused(admin);
  });

  it('at 1280 px the Excel export says what the screen says', async () => {
    await expectExportLikeScreen(admin, await shownRows(admin), 'desktop');
  });

  it('at 390 px: the same history, nothing wider than the phone; the same export', async () => {
    await admin.setViewportSize(MOBILE);
    await admin.goto('/');
    await openAudit(admin, true);
    const shown = await expectReadableHistory(admin);
    expect(await widerThanWindow(admin)).toEqual([]);
    expect(
      await admin.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
    ).toBeLessThanOrEqual(0);
    await captureScreen(admin, 'audit-client', world.accessibility);
    await expectReversedRangeRefused(admin);
    await expectExportLikeScreen(admin, shown, 'mobile');
  });

  it('has no serious or critical accessibility violation on the screens seen', () => {
    expect(world.accessibility.size).toBeGreaterThan(0);
    expect(describeViolations(world.accessibility)).toEqual([]);
  });
});
