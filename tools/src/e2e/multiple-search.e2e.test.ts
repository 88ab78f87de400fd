/**
 * Browser journey of the multiple search at both widths (1280 px and a 390 px phone): a client pastes a
 * column of unrelated tax codes copied with its header line, is told what the search will cost before
 * anything is charged, runs it, and reads each company's own de minimis in the summary per company, never
 * their de minimis added up against one 300.000 € ceiling (the ceiling is per undertaking); the searches
 * left go down by the number of codes; on the phone nothing is wider than the screen and every row says
 * whose aid it is; the spreadsheet downloads with each company's own figures. One portal for both widths,
 * a client of its own and other companies for each.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { DE_MINIMIS_CEILING_CENTS, formatEuroCents, formatInteger, isDeMinimisProcedure } from '@rna/domain';
import {
  ADMIN,
  aidsOf,
  captureScreen,
  describeViolations,
  DESKTOP,
  downloadByButton,
  inviteClientByApi,
  MOBILE,
  newContext,
  pasteInto,
  signIn,
  signInByApi,
  startWorld,
  statValue,
  syncArchiveByApi,
  taxCodesByAidCount,
  until,
  type InvitedClient,
  type World,
} from './harness';
import type { TruthRecord } from '../generator/generate';

jest.setTimeout(180_000);

const SEARCHES = 20;
/** how many unrelated companies each width searches together */
const COMPANIES = 3;
/** the header line of the copied spreadsheet column */
const HEADER = 'CODICEFISCALE';

let world: World;
let downloads: string;
/** each width's unrelated companies: one over the 300.000 € ceiling, two others with de minimis left */
let companiesOf: [string[], string[]];

beforeAll(async () => {
  world = await startWorld();
  downloads = await mkdtemp(path.join(os.tmpdir(), 'rna-e2e-multiple-'));
  await syncArchiveByApi(await signInByApi(world.portal.url, ADMIN.email, ADMIN.password));
  const withDeMinimis = taxCodesByAidCount(world.archive.truth)
    .map(figuresOf)
    .filter((c) => c.usedCents > 0);
  const over = withDeMinimis.filter((company) => company.remainingCents < 0).map((company) => company.code);
  const within = withDeMinimis
    .filter((company) => company.remainingCents >= 0)
    .map((company) => company.code);
  // the one over the ceiling is searched at both widths, by two clients: each is charged for it
  if (over.length < 1 || within.length < 2 * (COMPANIES - 1))
    throw new Error(
      `the generated archive has ${over.length} companies over the ceiling, ${within.length} within`,
    );
  companiesOf = [
    [over[0]!, ...within.slice(0, COMPANIES - 1)],
    [...within.slice(COMPANIES - 1, 2 * (COMPANIES - 1)), over[0]!],
  ];
});

afterAll(async () => {
  await world?.stop();
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

const isDeMinimis = (aid: TruthRecord) => isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento);
const sumCents = (aids: readonly TruthRecord[]) =>
  aids.reduce((total, aid) => total + aid.elementoDiAiutoCents, 0);

/** One company's figures by the generator's ground truth (every generated aid is within 3 years). */
function figuresOf(code: string) {
  const aids = aidsOf(world.archive.truth, [code]);
  const usedCents = sumCents(aids.filter(isDeMinimis));
  return {
    code,
    name: aids[0]?.denominazioneBeneficiario ?? '',
    aids: aids.length,
    totalCents: sumCents(aids),
    usedCents,
    remainingCents: DE_MINIMIS_CEILING_CENTS - usedCents,
  };
}

/** An amount left as the screen writes it: over the ceiling, said in words too. */
function remainingText(cents: number, exceeded: (words: string) => string): string {
  return formatEuroCents(cents) + (cents < 0 ? exceeded('massimale superato') : '');
}

/** The summary table's rows as label → text, by the labels its cells carry (the headers, or a card's). */
async function summaryRows(summary: Locator): Promise<Record<string, string>[]> {
  return summary
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        Object.fromEntries(
          [...row.querySelectorAll('th, td')].map((cell) => [
            cell.getAttribute('data-label') ?? '',
            (cell.textContent ?? '').trim(),
          ]),
        ),
      ),
    );
}

/**
 * The elements (or their text) that reach past the window's right edge, or whose text is cut inside them
 * (an ellipsis, a scroll box): what a user of a phone cannot read whole.
 */
async function beyondTheScreen(elements: Locator): Promise<string[]> {
  return elements.evaluateAll((found) =>
    // runs in the page (this workspace compiles without the DOM types)
    found.flatMap((element) => {
      const dom = globalThis as unknown as {
        document: {
          createRange(): { selectNodeContents(node: unknown): void; getBoundingClientRect(): Rect };
        };
        innerWidth: number;
      };
      interface Rect {
        left: number;
        right: number;
        width: number;
      }
      const node = element as unknown as {
        textContent: string | null;
        scrollWidth: number;
        clientWidth: number;
        getBoundingClientRect(): Rect;
      };
      const box = node.getBoundingClientRect();
      if (box.width === 0) return []; // not laid out (a spacer, a hidden header)
      const range = dom.document.createRange();
      range.selectNodeContents(node);
      const text = range.getBoundingClientRect();
      const problems: string[] = [];
      const what = (node.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 80);
      if (box.left < -0.5 || box.right > dom.innerWidth + 0.5)
        problems.push(`«${what}» spans ${Math.round(box.left)}–${Math.round(box.right)} px`);
      else if (text.right > dom.innerWidth + 0.5)
        problems.push(`«${what}»: its text runs to ${Math.round(text.right)} px`);
      else if (node.scrollWidth > node.clientWidth + 1)
        problems.push(`«${what}» is cut (${node.scrollWidth} px of text in ${node.clientWidth} px)`);
      return problems;
    }),
  );
}

/** The cells whose figure (their first text) does not fit one line: "154.811,18" here, "€" under it. */
async function brokenAmounts(cells: Locator): Promise<string[]> {
  return cells.evaluateAll((found) =>
    // runs in the page (this workspace compiles without the DOM types)
    found.flatMap((cell) => {
      const dom = globalThis as unknown as {
        document: {
          createRange(): {
            selectNodeContents(node: unknown): void;
            getClientRects(): ArrayLike<{ top: number; width: number }>;
          };
          createTreeWalker(
            root: unknown,
            show: number,
          ): { nextNode(): { textContent: string | null } | null };
        };
      };
      const walker = dom.document.createTreeWalker(cell, 4 /* NodeFilter.SHOW_TEXT */);
      let text = walker.nextNode();
      while (text && (text.textContent ?? '').trim() === '') text = walker.nextNode();
      if (!text) return [];
      const range = dom.document.createRange();
      range.selectNodeContents(text);
      const lines = new Set(
        Array.from(range.getClientRects())
          .filter((rect) => rect.width > 0)
          .map((rect) => Math.round(rect.top)),
      ).size;
      return lines > 1 ? [`«${(text.textContent ?? '').trim()}» takes ${lines} lines`] : [];
    }),
  );
}

/** What the remaining-searches counter says (on a phone it is the first line of the menu). */
async function searchesLeft(page: Page): Promise<string> {
  const counter = /^Ricerche( esaurite)?: \d+ \/ \d+$/;
  if ((page.viewportSize()?.width ?? 0) > 768) {
    const badge = page.locator('.nav-bar__badge');
    await badge.waitFor();
    return ((await badge.textContent()) ?? '').trim();
  }
  await page.getByRole('button', { name: 'Apri il menu' }).click();
  const item = page.getByRole('menu').getByRole('menuitem', { name: counter });
  await item.waitFor();
  const text = ((await item.textContent()) ?? '').trim();
  await page.keyboard.press('Escape');
  await page.getByRole('menu').waitFor({ state: 'detached' });
  return text;
}

/** The cell values of a worksheet's rows, as text. */
function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push(Array.isArray(row.values) ? row.values.slice(1) : []));
  return rows;
}

describe.each([
  { width: 'desktop', viewport: DESKTOP, turn: 0, email: 'studio.neri@example.it' },
  { width: 'phone', viewport: MOBILE, turn: 1, email: 'studio.gialli@example.it' },
])('the multiple search at $viewport.width px ($width)', ({ width, viewport, turn, email }) => {
  let context: BrowserContext;
  let page: Page;
  let invited: InvitedClient;
  let codes: string[];

  beforeAll(async () => {
    const admin = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
    invited = await inviteClientByApi(admin, email, { searches: SEARCHES, pdfEnabled: true });
    codes = companiesOf[turn]!;
    context = await newContext(world.browser, world.portal.url);
    page = await context.newPage();
    await page.setViewportSize(viewport);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('a pasted column with its header: a chip per code, none for the header, and the cost said before the search', async () => {
    await signIn(page, invited.email, invited.password);
    await page.getByRole('heading', { name: 'Ricerca aiuti di Stato' }).waitFor();
    expect(await searchesLeft(page)).toBe(`Ricerche: ${SEARCHES} / ${SEARCHES}`);

    // the column as copied from a spreadsheet: its header line, the codes, a blank line at the end
    await pasteInto(page.getByLabel('Codice fiscale', { exact: true }), [HEADER, ...codes, ''].join('\r\n'));
    for (const code of codes) await page.getByRole('button', { name: `Rimuovi ${code}` }).waitFor();
    expect(await page.getByRole('button', { name: /^Rimuovi / }).count()).toBe(COMPANIES);
    expect(await page.getByRole('button', { name: `Rimuovi ${HEADER}` }).count()).toBe(0);
    // several codes switched the box to the multiple search, and the header is said to be left out
    expect(await page.getByLabel('Ricerca multipla').isChecked()).toBe(true);
    await page.getByRole('alert').filter({ hasText: HEADER }).waitFor();

    // metered: what it will use is said before "Avvia ricerca", and nothing is charged yet
    const cost = page.getByRole('note').filter({ hasText: /conta fino a/ });
    expect(((await cost.textContent()) ?? '').trim()).toBe(
      `Questa ricerca di ${COMPANIES} codici conta fino a ${COMPANIES} ricerche: un codice già cercato oggi non si conta di nuovo.`,
    );
    expect(await searchesLeft(page)).toBe(`Ricerche: ${SEARCHES} / ${SEARCHES}`);
    if (width === 'phone')
      expect(await beyondTheScreen(page.locator('.search-form .chip, .search-form__cost'))).toEqual([]);
  });

  it('runs the search: the searches left go down by the number of codes', async () => {
    await page.getByRole('button', { name: 'Avvia ricerca' }).click();
    await page.getByRole('heading', { name: `Risultati per ${codes.join(', ')}` }).waitFor();
    await page.getByRole('region', { name: 'Numero documenti' }).waitFor();
    expect(new URL(page.url()).searchParams.get('taxCode')).toBe(codes.join(','));
    const expected = `Ricerche: ${SEARCHES - COMPANIES} / ${SEARCHES}`;
    await until(async () => (await searchesLeft(page)) === expected, `the counter at ${expected}`).catch(
      () => undefined, // the assertion below reports what is shown
    );
    expect(await searchesLeft(page)).toBe(expected);
  });

  it('each company has its own de minimis in the summary; none is added up against one 300.000 € ceiling', async () => {
    const figures = codes.map(figuresOf);
    const summary = page.getByRole('table', { name: 'Riepilogo per impresa' });
    await summary.waitFor();
    const rows = await summaryRows(summary);
    expect(rows).toEqual(
      figures.map((company) => ({
        'Codice fiscale': company.code,
        Beneficiario: company.name,
        'Aiuti (ultimi 3 anni)': formatInteger(company.aids),
        'Importo (ultimi 3 anni)': formatEuroCents(company.totalCents),
        'De minimis utilizzato': formatEuroCents(company.usedCents),
        'De minimis residuo': remainingText(company.remainingCents, (words) => ` (${words})`),
      })),
    );

    // the remaining card is one company's, named: the one with the least left
    const tightest = figures.reduce((most, next) => (next.usedCents > most.usedCents ? next : most));
    const card = page.getByRole('region', { name: /^De minimis residuo/ });
    expect(((await card.locator('.stat-card__label').textContent()) ?? '').trim()).toBe(
      `De minimis residuo di ${tightest.name} (il più basso)`,
    );
    expect(((await card.locator('.stat-card__value').textContent()) ?? '').trim()).toBe(
      remainingText(tightest.remainingCents, (words) => ` ${words}`),
    );
    // and so is the de minimis used beside it: used and left make up that company's 300.000 €
    expect(await statValue(page, `De minimis utilizzato di ${tightest.name}`)).toBe(
      formatEuroCents(tightest.usedCents),
    );
    expect(await page.getByRole('region', { name: 'Totale de minimis', exact: true }).count()).toBe(0);
    await page.getByText('Il massimale di 300.000 € vale per ciascuna impresa').waitFor();
    expect(await statValue(page, 'Numero documenti')).toBe(
      formatInteger(aidsOf(world.archive.truth, codes).length),
    );

    // nowhere on the page, the chart's figures included, the companies' de minimis against one ceiling
    await page.getByRole('button', { name: 'Mostra dati' }).click();
    await page.getByRole('button', { name: 'Nascondi dati' }).waitFor();
    const summedCents = figures.reduce((total, company) => total + company.usedCents, 0);
    const summed = [summedCents, DE_MINIMIS_CEILING_CENTS - summedCents].map(formatEuroCents);
    const own = figures.flatMap((company) =>
      [company.usedCents, company.remainingCents].map(formatEuroCents),
    );
    expect(own.filter((amount) => summed.includes(amount))).toEqual([]);
    const shown = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    expect(summed.filter((amount) => shown.includes(amount))).toEqual([]);
    // the chart is the tightest company's, this month's remaining its own
    const chartData = page.locator('.chart__data');
    expect(((await chartData.locator('caption').textContent()) ?? '').trim()).toBe(
      `De minimis utilizzato e residuo di ${tightest.name} (36 mesi)`,
    );
    expect(
      ((await chartData.locator('tbody tr').first().locator('td').last().textContent()) ?? '').trim(),
    ).toBe(formatEuroCents(tightest.remainingCents));
    await page.getByRole('button', { name: 'Nascondi dati' }).click();
    if (width === 'desktop') {
      await captureScreen(page, 'documents-multiple-search', world.accessibility);
      await page.setViewportSize(viewport);
    }
  });

  it('every row of the aids says whose it is; on a phone nothing of the results is wider than the screen', async () => {
    const table = page.getByRole('table', { name: 'Aiuti concessi' });
    const rows = table.locator('tbody tr[aria-rowindex]');
    await rows.first().waitFor();
    expect(await table.getAttribute('aria-rowcount')).toBe(
      String(aidsOf(world.archive.truth, codes).length + 1),
    );
    const byCode = new Map(codes.map((code) => [code, figuresOf(code).name]));
    // whose: a column at 1280 px, a label over each card on a phone ("name · code")
    const who = await rows.evaluateAll((found) =>
      found.map((row) =>
        (row.querySelector('.documents-table__who')?.closest('td')?.textContent ?? '').trim(),
      ),
    );
    expect(who.length).toBeGreaterThan(0);
    const unnamed = who.filter(
      (text) => ![...byCode].some(([code, name]) => text.includes(code) && text.includes(name)),
    );
    expect(unnamed).toEqual([]);
    if (width === 'desktop') {
      await table.getByRole('columnheader', { name: 'Beneficiario' }).waitFor();
      return;
    }

    const problems: string[] = [];
    const overflow = (await page.evaluate(
      'document.documentElement.scrollWidth - window.innerWidth',
    )) as number;
    if (overflow > 0) problems.push(`the page is ${overflow} px wider than the phone`);
    const summary = page.getByRole('table', { name: 'Riepilogo per impresa' });
    await summary.scrollIntoViewIfNeeded();
    problems.push(...(await beyondTheScreen(summary.locator('tbody tr, tbody th, tbody td'))));
    problems.push(...(await brokenAmounts(summary.locator('tbody td.numeric'))));
    // nor wider than its card, to be scrolled sideways there
    const sideways = await page
      .locator('.code-summaries')
      .evaluate(
        (wrap) =>
          (wrap as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth -
          (wrap as unknown as { clientWidth: number }).clientWidth,
      );
    if (sideways > 0) problems.push(`the summary per company scrolls sideways by ${sideways} px`);
    await table.scrollIntoViewIfNeeded();
    problems.push(...(await beyondTheScreen(rows.locator('td'))));
    problems.push(...(await beyondTheScreen(rows.locator('.documents-table__who'))));
    problems.push(
      ...(await beyondTheScreen(page.locator('.stat-card, .stat-card__value, .stat-card__label'))),
    );
    problems.push(...(await beyondTheScreen(page.getByRole('toolbar', { name: /./ }).getByRole('button'))));
    expect([...new Set(problems)]).toEqual([]);
  });

  it('downloads the spreadsheet: a row per company with its own figures, and the download costs nothing', async () => {
    const figures = codes.map(figuresOf);
    const sheet = await downloadByButton(page, 'Scarica Excel', downloads);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(sheet);
    const companies = workbook.getWorksheet('Riepilogo per impresa');
    if (!companies) throw new Error(`${path.basename(sheet)} has no "Riepilogo per impresa" sheet`);
    const [header, ...rows] = rowsOf(companies);
    const column = (name: string) => (header ?? []).indexOf(name);
    expect(
      rows.map((row) => ({
        code: row[column('Codice fiscale')],
        name: row[column('Beneficiario')],
        aids: row[column('Aiuti (ultimi 3 anni)')],
        used: row[column('De minimis utilizzato')],
        remaining: row[column('De minimis residuo')],
      })),
    ).toEqual(
      figures.map((company) => ({
        code: company.code,
        name: company.name,
        aids: company.aids,
        used: company.usedCents / 100,
        remaining: company.remainingCents / 100,
      })),
    );
    // the totals sheet too: the remaining is the tightest company's, named, not the sum against 300.000 €
    const tightest = figures.reduce((most, next) => (next.usedCents > most.usedCents ? next : most));
    const totals = workbook.getWorksheet('Riepilogo');
    if (!totals) throw new Error(`${path.basename(sheet)} has no "Riepilogo" sheet`);
    const remainingRow = rowsOf(totals).find((row) => String(row[0]).startsWith('De minimis residuo'));
    expect(remainingRow).toEqual([
      `De minimis residuo di ${tightest.name} (il più basso)`,
      tightest.remainingCents / 100,
    ]);

    expect(await searchesLeft(page)).toBe(`Ricerche: ${SEARCHES - COMPANIES} / ${SEARCHES}`);
  });
});

describe('at both widths', () => {
  it('has no serious or critical accessibility violation on the results of a multiple search', () => {
    expect(world.accessibility.size).toBeGreaterThan(0);
    expect(describeViolations(world.accessibility)).toEqual([]);
  });
});
