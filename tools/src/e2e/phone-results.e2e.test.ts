/**
 * Browser journey on a phone (390 × 844): a client searches a company with many aids and reads the
 * results as laid out, measured in Chromium: nothing wider than the screen, dates on one line, amounts
 * whole, the de minimis left visible without scrolling, the current month of the chart in view, every tab
 * and the last-update banner whole, the variation alerts in the page rather than in a tiny scroll box.
 * The same search at 1280 px still shows the desktop table. One portal, steps in order.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  ADMIN,
  aidsOf,
  DESKTOP,
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

let world: World;
let context: BrowserContext;
let client: Page;
let admin: Page;
let invited: InvitedClient;
let codes: string[];

beforeAll(async () => {
  world = await startWorld();
  const api = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
  await syncArchiveByApi(api);
  codes = taxCodesByAidCount(world.archive.truth);
  invited = await inviteClientByApi(api, 'studio.verdi@example.it', {
    searches: 20,
    enableVariationAlerts: true,
  });
  // four alerts: one more than a row of the wide layout holds
  const own = await signInByApi(world.portal.url, invited.email, invited.password);
  for (const code of codes.slice(0, 4)) await own.call('POST', '/variation-alerts', { taxCodes: [code] });
  context = await newContext(world.browser, world.portal.url);
  client = await context.newPage();
  await client.setViewportSize(MOBILE);
  const adminContext = await newContext(world.browser, world.portal.url);
  admin = await adminContext.newPage();
  await admin.setViewportSize(MOBILE);
});

afterAll(async () => {
  await world?.stop();
});

/** A box as the page lays it out (CSS px, relative to the viewport). */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  height: number;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${String(locator)} is not laid out`);
  return {
    left: box.x,
    top: box.y,
    right: box.x + box.width,
    bottom: box.y + box.height,
    height: box.height,
  };
}

/** How much wider than the window the page is (0: no sideways scrolling of the page). */
async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;
}

/**
 * What a cell shows, as laid out: the lines its text takes, one line's height, and whether the text is cut
 * (wider than the cell, or going past the cell's or the window's right edge).
 */
interface CellLayout {
  text: string;
  lines: number;
  textHeight: number;
  lineHeight: number;
  clipped: boolean;
}

async function cellLayouts(cells: Locator): Promise<CellLayout[]> {
  return cells.evaluateAll((elements) =>
    // runs in the page (this workspace compiles without the DOM types)
    elements.map((element) => {
      const dom = globalThis as unknown as {
        document: { createRange(): { selectNodeContents(node: unknown): void } & Measurable };
        getComputedStyle(node: unknown): { lineHeight: string; fontSize: string };
        innerWidth: number;
      };
      interface Rect {
        top: number;
        right: number;
        height: number;
        width: number;
      }
      interface Measurable {
        getClientRects(): ArrayLike<Rect>;
        getBoundingClientRect(): Rect;
      }
      const cell = element as unknown as Measurable & {
        textContent: string | null;
        scrollWidth: number;
        clientWidth: number;
      };
      const range = dom.document.createRange();
      range.selectNodeContents(cell);
      const rects = Array.from(range.getClientRects()).filter((rect) => rect.width > 0);
      const lines = new Set(rects.map((rect) => Math.round(rect.top))).size;
      const text = range.getBoundingClientRect();
      const style = dom.getComputedStyle(cell);
      const lineHeight =
        style.lineHeight === 'normal' ? parseFloat(style.fontSize) * 1.2 : parseFloat(style.lineHeight);
      const box = cell.getBoundingClientRect();
      return {
        text: (cell.textContent ?? '').trim(),
        lines,
        textHeight: text.height,
        lineHeight,
        clipped:
          cell.scrollWidth > cell.clientWidth ||
          text.right > box.right + 0.5 ||
          text.right > dom.innerWidth + 0.5,
      };
    }),
  );
}

/** The tabs of a tab list that are not wholly on screen and inside their list (cut or hidden). */
async function hiddenTabs(page: Page, listName: string): Promise<string[]> {
  const list = page.getByRole('tablist', { name: listName });
  const listBox = await boxOf(list);
  const viewport = page.viewportSize()!;
  const hidden: string[] = [];
  for (const tab of await list.getByRole('tab').all()) {
    const box = await boxOf(tab);
    const inside =
      box.left >= Math.max(0, listBox.left) - 0.5 &&
      box.right <= Math.min(viewport.width, listBox.right) + 0.5 &&
      box.top >= listBox.top - 0.5 &&
      box.bottom <= listBox.bottom + 0.5;
    if (!inside) hidden.push(((await tab.textContent()) ?? '').trim());
  }
  return hidden;
}

async function searchHeaviest(page: Page): Promise<string> {
  const [heaviest] = codes as [string];
  await page.goto(`/documents?taxCode=${heaviest}&deMinimis=false&last3Years=false`);
  await page.getByRole('heading', { name: new RegExp(`^Risultati per ${heaviest}`) }).waitFor();
  await page.getByRole('region', { name: 'Numero documenti' }).waitFor();
  return heaviest;
}

describe('the results of a search on a phone (390 px)', () => {
  it('home: the last-update banner is whole, and the four alerts are in the page, not in a scroll box', async () => {
    await signIn(client, invited.email, invited.password);
    await client.getByRole('heading', { name: 'Avvisi di variazione' }).waitFor();
    const problems: string[] = [];
    const banner = client.getByRole('note').filter({ hasText: 'Ultimo aggiornamento dei dati' });
    if (!(await banner.isVisible())) problems.push('the last-update banner is not shown');
    else {
      const [text] = await cellLayouts(banner);
      if (text?.clipped) problems.push(`the banner's text is cut: ${JSON.stringify(text)}`);
      if ((await boxOf(banner)).height < text!.textHeight - 0.5)
        problems.push('the banner is lower than its text');
    }

    const list = client.locator('.alerts__list');
    const items = list.locator('.alerts__item');
    await until(async () => (await items.count()) === 4, 'the four alerts');
    // the list is as tall as its alerts: none waits behind a scroll bar of its own
    const scroll = (await list.evaluate((element) => {
      const box = element as unknown as { scrollHeight: number; clientHeight: number };
      return { scrollHeight: box.scrollHeight, clientHeight: box.clientHeight };
    })) as { scrollHeight: number; clientHeight: number };
    if (scroll.scrollHeight > scroll.clientHeight)
      problems.push(`the alerts scroll in a box of their own: ${JSON.stringify(scroll)}`);
    const listBox = await boxOf(list);
    const fourth = await boxOf(items.nth(3));
    if (fourth.bottom > listBox.bottom + 0.5) problems.push('the fourth alert is hidden below its list');
    const overflow = await pageOverflow(client);
    if (overflow > 0) problems.push(`the page is ${overflow} px wider than the phone`);
    expect(problems).toEqual([]);
  });

  it('search: cards, chart and table fit the phone; dates on one line, amounts whole', async () => {
    const heaviest = await searchHeaviest(client);
    expect(aidsOf(world.archive.truth, [heaviest]).length).toBeGreaterThan(5);
    const table = client.getByRole('table', { name: 'Aiuti concessi' });
    const rows = table.locator('tbody tr[aria-rowindex]');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(5);
    const problems: string[] = [];

    // the remaining allowance is read without scrolling
    await client.evaluate('window.scrollTo(0, 0)');
    const remaining = await boxOf(client.getByRole('region', { name: /^De minimis residuo/ }));
    if (remaining.top >= MOBILE.height || remaining.bottom > MOBILE.height)
      problems.push(`the remaining card is at ${remaining.top}–${remaining.bottom} px, below the screen`);
    const values = await cellLayouts(client.locator('.stat-card__value'));
    for (const value of values.filter((shown) => shown.clipped))
      problems.push(`a card's figure is cut: ${value.text}`);

    // the chart runs from the current month on: once scrolled to, the current month is on screen, on top
    await client.getByRole('button', { name: 'Mostra dati' }).click();
    const current = ((await client.locator('.chart__data tbody tr th').first().textContent()) ?? '').trim();
    await client.getByRole('button', { name: 'Nascondi dati' }).click();
    expect(current).not.toBe('');
    const chart = client.locator('figure.chart');
    await client.locator('.highcharts-bar-series').first().waitFor();
    await chart.evaluate((element) => (element as unknown as { scrollIntoView(): void }).scrollIntoView());
    const label = client.locator('.highcharts-xaxis-labels text', { hasText: current });
    if ((await label.count()) === 0) problems.push(`the chart does not name the current month ${current}`);
    else {
      const box = await boxOf(label);
      if (box.top < 0 || box.bottom > MOBILE.height)
        problems.push(`the current month of the chart is at ${box.top} px, off the screen`);
      const tops = await Promise.all(
        (await client.locator('.highcharts-xaxis-labels text').all()).map(boxOf),
      );
      if (tops.some((other) => other.top < box.top - 0.5))
        problems.push('the current month is not the first the chart shows');
    }
    // three years of months on one screen, under the navigation bar
    const chartBox = await boxOf(chart);
    const navBox = await boxOf(client.locator('.nav-bar'));
    if (chartBox.height > MOBILE.height - navBox.height)
      problems.push(`the chart is ${chartBox.height} px tall, more than the screen shows`);

    // the table: no sideways scrolling of the page, each date on one line, every amount whole
    await table.scrollIntoViewIfNeeded();
    const overflow = await pageOverflow(client);
    if (overflow > 0) problems.push(`the page is ${overflow} px wider than the phone`);
    const dates = await cellLayouts(rows.locator('td:first-child'));
    expect(dates.every((date) => /^\d{2}-\d{2}-\d{4}$/.test(date.text))).toBe(true);
    for (const date of dates.filter(
      (shown) => shown.lines !== 1 || shown.textHeight > shown.lineHeight * 1.5,
    ))
      problems.push(`a date takes ${date.lines} lines: ${JSON.stringify(date)}`);
    const amounts = await cellLayouts(rows.locator('td.numeric'));
    expect(amounts.length).toBe(await rows.count());
    for (const amount of amounts.filter((shown) => shown.clipped))
      problems.push(`an amount is cut: ${amount.text}`);
    // what names the figures (column headers, or the labels of each row) is whole too
    for (const header of (await cellLayouts(table.locator('thead th:visible'))).filter(
      (shown) => shown.clipped,
    ))
      problems.push(`a column header is cut: ${header.text}`);

    // the tabs of the results are whole on screen
    for (const tab of await hiddenTabs(client, 'Vista dei risultati')) problems.push(`the tab ${tab} is cut`);
    expect(problems).toEqual([]);
  });

  it('search, detail view: the wide table scrolls by itself, its dates on one line and amounts whole', async () => {
    await client.getByRole('tab', { name: 'Dettaglio aiuti' }).click();
    const table = client.getByRole('table', { name: 'Dettaglio degli aiuti concessi' });
    const rows = table.locator('tbody tr[aria-rowindex]');
    await rows.first().waitFor();
    await table.scrollIntoViewIfNeeded();
    expect(await pageOverflow(client)).toBeLessThanOrEqual(0);
    const dates = await cellLayouts(rows.locator('td:first-child'));
    expect(dates.filter((date) => date.lines !== 1)).toEqual([]);
    // the amounts are at the far right of a table wider than the phone: scroll there, as a user would
    const region = client.getByRole('region', { name: 'Dettaglio degli aiuti concessi' });
    await region.evaluate((element) => {
      const scroller = element as unknown as { scrollLeft: number; scrollWidth: number };
      scroller.scrollLeft = scroller.scrollWidth;
    });
    await client.waitForTimeout(100);
    const amounts = await cellLayouts(rows.locator('td.numeric'));
    expect(amounts.length).toBe(2 * (await rows.count()));
    expect(amounts.filter((amount) => amount.clipped)).toEqual([]);
    await client.getByRole('tab', { name: 'Sintesi' }).click();
  });

  it('clients screen: every tab is whole on screen', async () => {
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.getByRole('button', { name: 'Apri il menu' }).click();
    await admin.getByRole('menuitem', { name: 'Gestione clienti' }).click();
    await admin.getByRole('heading', { name: 'Gestione clienti' }).waitFor();
    await admin.getByRole('tab', { name: 'Loghi' }).waitFor();
    expect(await hiddenTabs(admin, 'Sezioni clienti')).toEqual([]);
    expect(await pageOverflow(admin)).toBeLessThanOrEqual(0);
  });

  it('at 1280 px the same search shows the desktop table, one row a line under its headers', async () => {
    await client.setViewportSize(DESKTOP);
    await expectSignedIn(client, invited.email);
    await searchHeaviest(client);
    const table = client.getByRole('table', { name: 'Aiuti concessi' });
    const rows = table.locator('tbody tr[aria-rowindex]');
    await rows.first().waitFor();
    const headers = table.locator('thead th');
    expect(await headers.allTextContents()).toEqual([
      'Data concessione',
      'Descrizione procedimento',
      'Elemento di aiuto',
    ]);
    for (const header of await headers.all()) expect(await header.isVisible()).toBe(true);
    const row = rows.first();
    const display = await row.evaluate(
      (element) =>
        // runs in the page (this workspace compiles without the DOM types)
        (globalThis as unknown as { getComputedStyle(node: unknown): { display: string } }).getComputedStyle(
          element,
        ).display,
    );
    expect(display).toBe('table-row');
    // date, description and amount side by side, on the row's one line
    const cells = await Promise.all((await row.locator('td').all()).map(boxOf));
    expect(cells.length).toBe(3);
    expect(new Set(cells.map((cell) => Math.round(cell.top))).size).toBe(1);
    expect(cells[0]!.right).toBeLessThanOrEqual(cells[1]!.left + 0.5);
    expect(cells[1]!.right).toBeLessThanOrEqual(cells[2]!.left + 0.5);
    expect((await boxOf(row)).height).toBe(44);
    // the four cards side by side
    const cards = await Promise.all((await client.locator('.stat-grid .stat-card').all()).map(boxOf));
    expect(new Set(cards.map((card) => Math.round(card.top))).size).toBe(1);
    await client.setViewportSize(MOBILE);
  });
});
