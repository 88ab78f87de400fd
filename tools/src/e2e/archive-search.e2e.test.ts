/**
 * Browser journeys of the archive and the search: an admin syncs the generated register files
 * from the mirror and watches the progress; a client searches one and several tax codes and
 * sees what the generator's ground truth says; downloads both reports; sets and removes a
 * favorite and a variation alert; runs out of searches, expires, and is renewed; searches in live
 * mode while the register paces its callers. One portal, steps in order.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  DE_MINIMIS_CEILING_CENTS,
  formatEuroCents,
  formatInteger,
  formatItalianDate,
  isDeMinimisProcedure,
} from '@rna/domain';
import {
  ADMIN,
  aidsOf,
  captureScreen,
  describeViolations,
  downloadByButton,
  dialog,
  expectMessage,
  expectSignedIn,
  expectSignedOut,
  inviteClientByApi,
  MOBILE,
  DESKTOP,
  newContext,
  pasteInto,
  pdfText,
  republishFile,
  signIn,
  signInByApi,
  startWorld,
  statValue,
  taxCodesByAidCount,
  until,
  type InvitedClient,
  type World,
} from './harness';
import type { TruthRecord } from '../generator/generate';

jest.setTimeout(120_000);

const EXPIRED_TEXT = 'Abbonamento scaduto, contatti il referente commerciale'; // errors.A002

let world: World;
let adminContext: BrowserContext;
let admin: Page;
let clientContext: BrowserContext;
let client: Page;
let invited: InvitedClient;
let downloads: string;

beforeAll(async () => {
  world = await startWorld();
  downloads = await mkdtemp(path.join(os.tmpdir(), 'rna-e2e-downloads-'));
  adminContext = await newContext(world.browser, world.portal.url);
  admin = await adminContext.newPage();
  clientContext = await newContext(world.browser, world.portal.url);
  client = await clientContext.newPage();
});

afterAll(async () => {
  await world?.stop();
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

/**
 * What the four stat cards must show for these aids (all generated aids are recent). Several
 * unrelated companies are never added up against one ceiling: the de minimis used and remaining cards
 * are the company's with the least left (the first searched on a tie), named in their labels.
 */
function expectedCards(aids: readonly TruthRecord[], searched: readonly string[] = []) {
  const sum = (list: readonly TruthRecord[]) =>
    list.reduce((total, aid) => total + aid.elementoDiAiutoCents, 0);
  const isDeMinimis = (aid: TruthRecord) => isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento);
  let used = { label: 'Totale de minimis', cents: sum(aids.filter(isDeMinimis)) };
  let remaining = { label: 'De minimis residuo', cents: DE_MINIMIS_CEILING_CENTS - used.cents };
  if (searched.length > 1) {
    const perCompany = searched.map((code) => ({
      code,
      cents: sum(aids.filter((aid) => aid.codiceFiscaleBeneficiario === code && isDeMinimis(aid))),
    }));
    const tightest = perCompany.reduce((most, next) => (next.cents > most.cents ? next : most));
    const name =
      aids.find((aid) => aid.codiceFiscaleBeneficiario === tightest.code)?.denominazioneBeneficiario ??
      tightest.code;
    used = { label: `De minimis utilizzato di ${name}`, cents: tightest.cents };
    remaining = {
      label: `De minimis residuo di ${name} (il più basso)`,
      cents: DE_MINIMIS_CEILING_CENTS - tightest.cents,
    };
  }
  return {
    documents: formatInteger(aids.length),
    total: formatEuroCents(sum(aids)),
    deMinimis: formatEuroCents(used.cents),
    deMinimisLabel: used.label,
    // over the ceiling, the card says so in words after the amount
    remaining: formatEuroCents(remaining.cents) + (remaining.cents < 0 ? ' massimale superato' : ''),
    remainingLabel: remaining.label,
  };
}

async function shownCards(page: Page) {
  const remainingCard = page.getByRole('region', { name: /^De minimis residuo/ });
  const usedCard = page.getByRole('region', { name: /^(Totale de minimis$|De minimis utilizzato di )/ });
  return {
    documents: await statValue(page, 'Numero documenti'),
    total: await statValue(page, 'Importo totale'),
    deMinimis: ((await usedCard.locator('.stat-card__value').textContent()) ?? '').trim(),
    deMinimisLabel: ((await usedCard.locator('.stat-card__label').textContent()) ?? '').trim(),
    remaining: ((await remainingCard.locator('.stat-card__value').textContent()) ?? '').trim(),
    remainingLabel: ((await remainingCard.locator('.stat-card__label').textContent()) ?? '').trim(),
  };
}

/** The table holds every aid (it renders only the rows in view), newest first. */
async function expectTableOf(page: Page, aids: readonly TruthRecord[]): Promise<void> {
  const table = page.getByRole('table', { name: 'Aiuti concessi' });
  expect(await table.getAttribute('aria-rowcount')).toBe(String(aids.length + 1));
  const newest = [...aids].sort((a, b) => b.dataConcessione.localeCompare(a.dataConcessione))[0];
  const firstDate = await table.locator('tbody tr td').first().textContent();
  expect(firstDate).toBe(newest ? formatItalianDate(newest.dataConcessione) : '');
}

/** The cards of a finished search (a new search keeps the previous answer on screen while it runs). */
async function expectCardsOf(
  page: Page,
  aids: readonly TruthRecord[],
  searched: readonly string[] = [],
): Promise<void> {
  const expected = expectedCards(aids, searched);
  await until(
    async () => JSON.stringify(await shownCards(page)) === JSON.stringify(expected),
    'the stat cards of the search',
  ).catch(() => undefined); // the assertion below reports the difference
  expect(await shownCards(page)).toEqual(expected);
}

async function searchOne(page: Page, taxCode: string): Promise<void> {
  await page.getByLabel('Codice fiscale', { exact: true }).fill(taxCode);
  await page.getByRole('button', { name: 'Avvia ricerca' }).click();
}

async function waitForResults(page: Page, taxCodes: string[]): Promise<void> {
  await page.getByRole('heading', { name: `Risultati per ${taxCodes.join(', ')}` }).waitFor();
  await page.getByRole('region', { name: 'Numero documenti' }).waitFor();
}

describe('archive sync and search in a real browser', () => {
  it('an admin syncs the generated archive and watches per-file progress to "Sincronizzazione completata"', async () => {
    // slow transfers, so that the progress cards can be watched
    world.mirror.setFaults({ bytesPerSecond: 6_000 });
    await signIn(admin, ADMIN.email, ADMIN.password);
    await expectSignedIn(admin, ADMIN.email);
    await admin.getByRole('link', { name: 'Archivio' }).click();
    await admin.getByRole('heading', { name: 'Archivio e sincronizzazione' }).waitFor();
    // '—' while the figures load, then 'Mai' for an archive never synchronised
    await until(
      async () => (await statValue(admin, 'Ultima sincronizzazione')) === 'Mai',
      'an empty archive',
    );
    await captureScreen(admin, 'sync-empty', world.accessibility);

    await admin.getByRole('button', { name: 'Sincronizza' }).click();
    await admin.getByRole('menuitem', { name: 'Ultimo anno' }).click();
    const confirm = dialog(admin, 'Avviare la sincronizzazione: Ultimo anno?');
    await confirm
      .getByText('La sincronizzazione può richiedere diverse ore e non può essere interrotta.')
      .waitFor();
    await captureScreen(admin, 'sync-confirm', world.accessibility);
    await confirm.getByRole('button', { name: 'Conferma' }).click();

    // without reopening the screen: the running button counts the files done, the grid shows the
    // run's files as progress cards, and a file the run has finished turns into a green card with
    // its new date while the others still run
    const running = admin.getByRole('button', { name: /Sincronizzazione in corso/ });
    await running.waitFor();
    const counters = new Set<string>();
    const cardTexts = new Set<string>();
    let capturedProgress = false;
    let finishedWhileRunning = '';
    // every read below is one that does not wait: the button or a card may be gone between two reads
    while (await running.isVisible()) {
      for (const text of await running.allTextContents()) counters.add(text.replace(/\s+/g, ' ').trim());
      const cards = admin.locator('.archive-file--progress');
      for (const text of await cards.allTextContents()) cardTexts.add(text);
      if (!capturedProgress && (await cards.count()) > 0) {
        await captureScreen(admin, 'sync-progress', world.accessibility);
        capturedProgress = true;
      }
      const finished = admin.locator('button.archive-file.status--success:enabled');
      const [text] = finishedWhileRunning ? [] : await finished.allTextContents();
      // only counts if the run was still going after the card was read
      if (text !== undefined && !text.includes('Mai') && (await running.isVisible()))
        finishedWhileRunning = text;
      await admin.waitForTimeout(100);
    }
    world.mirror.setFaults({ bytesPerSecond: null });
    await expectMessage(admin, 'Sincronizzazione completata');
    const total = world.archive.fileNames.length;
    expect([...counters].some((text) => new RegExp(`\\(\\d+/${total}\\)`).test(text))).toBe(true);
    expect(capturedProgress).toBe(true);
    expect(finishedWhileRunning).toMatch(/^\d{4}_\d{2}(_\d{3})?\s*\d{2}-\d{2}-\d{4} \d{2}:\d{2}/);
    // a progress card shows the file and one of the active states (percentage, parsing or waiting)
    expect(
      [...cardTexts].some((text) => /\d{4}_\d{2}.*(\d+,\d{2} ?%|Elaborazione|In attesa)/.test(text)),
    ).toBe(true);

    // the archive grid: every generated file, by its name without prefix, with a date
    for (const name of world.archive.fileNames) {
      const file = admin.getByRole('button', { name: new RegExp(`^${name}\\b`) });
      await file.waitFor();
      expect(await file.textContent()).not.toContain('Mai');
    }
    expect(await statValue(admin, 'Documenti in archivio')).toBe(formatInteger(world.archive.truth.length));
    expect(await statValue(admin, 'Ultima sincronizzazione')).not.toBe('Mai');
    await captureScreen(admin, 'sync-archive', world.accessibility);

    await admin.getByRole('tab', { name: 'Storico' }).click();
    const run = admin.getByRole('row', { name: /Ultimo anno/ });
    await run.getByText('Completata').waitFor();
    expect(await run.textContent()).toContain(
      `${world.archive.fileNames.length} riusciti, 0 errori, 0 invariati`,
    );
    expect(await run.textContent()).toContain(formatInteger(world.archive.truth.length));
    await captureScreen(admin, 'sync-history', world.accessibility);
  });

  it('an admin who reopens the screen mid-run finds the run tracked again (resumes on opening)', async () => {
    const [name] = world.archive.fileNames;
    if (!name) throw new Error('the generated archive has no file');
    // a new version of one file at the register, served slowly: the custom sync of it takes a while
    await republishFile(world.archive, name);
    world.mirror.setFaults({ bytesPerSecond: 2_000 });
    await admin.getByRole('tab', { name: 'Elenco' }).click();
    const card = admin.getByRole('button', { name: new RegExp(`^${name}\\b`) });
    await card.click();
    expect(await card.getAttribute('aria-pressed')).toBe('true');
    await admin.getByRole('button', { name: 'Sincronizza selezionati (1)' }).click();
    await dialog(admin, 'Avviare la sincronizzazione: File selezionati?')
      .getByRole('button', { name: 'Conferma' })
      .click();
    const running = admin.getByRole('button', { name: /Sincronizzazione in corso/ });
    await running.waitFor();

    await admin.reload();
    await admin.getByRole('heading', { name: 'Archivio e sincronizzazione' }).waitFor();
    await running.waitFor(); // the status check on opening found the run
    await admin.locator('.archive-file--progress', { hasText: name }).waitFor();
    world.mirror.setFaults({ bytesPerSecond: null });
    await expectMessage(admin, 'Sincronizzazione completata');
    await admin.getByRole('tab', { name: 'Storico' }).click();
    const run = admin.getByRole('row', { name: /File selezionati/ });
    await run.getByText('Completata').waitFor();
    expect(await run.textContent()).toContain('1 riusciti, 0 errori, 0 invariati');
  });

  it('a client searches one and several tax codes; cards, chart and table match the ground truth', async () => {
    const api = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
    invited = await inviteClientByApi(api, 'ufficio.bianchi@example.it', {
      searches: 20,
      pdfEnabled: true,
      enableVariationAlerts: true,
    });
    await signIn(client, invited.email, invited.password);
    await expectSignedIn(client, invited.email);
    await client.getByText('Ricerche: 20 / 20').waitFor();

    // T002 before anything is searched
    await searchOne(client, 'ABC123');
    await expectMessage(client, 'Il termine di ricerca deve avere almeno 11 caratteri');
    expect(client.url()).not.toContain('/documents');

    const [heaviest, second] = taxCodesByAidCount(world.archive.truth);
    if (!heaviest || !second) throw new Error('the generated archive has fewer than two beneficiaries');
    const one = aidsOf(world.archive.truth, [heaviest]);
    await searchOne(client, heaviest);
    await waitForResults(client, [heaviest]);
    expect(client.url()).toContain(`taxCode=${heaviest}&deMinimis=false&last3Years=false`);
    await expectCardsOf(client, one);
    await expectTableOf(client, one);
    await client.locator('.highcharts-column-series').first().waitFor();
    await client.getByText('Ricerche: 19 / 20').waitFor();
    await captureScreen(client, 'documents', world.accessibility);

    // several codes as chips
    await client.getByLabel('Ricerca multipla').check();
    const codes = client.getByLabel('Codici fiscali');
    await codes.fill('12345');
    await codes.press('Enter');
    await expectMessage(client, 'Il termine di ricerca deve avere almeno 11 caratteri');
    // a column copied from a spreadsheet: one chip per code, the repeated one once, never one long code
    await pasteInto(
      client.getByLabel('Codici fiscali', { exact: true }),
      `${second}\r\n${heaviest}\r\n${second}\r\n`,
    );
    await client.getByRole('button', { name: `Rimuovi ${heaviest}` }).waitFor();
    await client.getByRole('button', { name: `Rimuovi ${second}` }).waitFor();
    expect(await client.getByRole('button', { name: /^Rimuovi / }).count()).toBe(2);
    await client.getByRole('button', { name: 'Avvia ricerca' }).click();
    await waitForResults(client, [heaviest, second]);
    const both = aidsOf(world.archive.truth, [heaviest, second]);
    await expectCardsOf(client, both, [heaviest, second]);
    await expectTableOf(client, both);
    // whose row is it: a summary per company, and the beneficiary on every row
    const summary = client.getByRole('table', { name: 'Riepilogo per impresa' });
    for (const code of [heaviest, second]) {
      await summary.getByRole('row', { name: new RegExp(code) }).waitFor();
    }
    const aidsTable = client.getByRole('table', { name: 'Aiuti concessi' });
    await aidsTable.getByRole('columnheader', { name: 'Beneficiario' }).waitFor();
    await captureScreen(client, 'documents-multiple', world.accessibility);
    await client.setViewportSize(MOBILE);
    // the table re-renders for the narrow screen after the resize: wait for the row labels
    const who = aidsTable.locator('tbody tr .documents-table__who').first();
    await until(
      async () => ((await who.textContent()) ?? '').includes(' · '),
      'the row labels at 390 px',
    ).catch(
      () => undefined, // the assertion below reports what is shown
    );
    expect(await who.textContent()).toMatch(new RegExp(`· (${heaviest}|${second})$`));
    await client.setViewportSize(DESKTOP);

    // a display filter changes the table and the totals, never the de minimis left; and the same
    // companies the same day cost nothing again
    const remainingBefore = (await shownCards(client)).remaining;
    await client.getByText('Ricerche: 18 / 20').waitFor();
    await client.getByLabel('Solo de minimis').check();
    await client.getByRole('button', { name: 'Avvia ricerca' }).click();
    const deMinimisOnly = both.filter((aid) =>
      isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento),
    );
    await until(
      async () => (await statValue(client, 'Numero documenti')) === formatInteger(deMinimisOnly.length),
      'the totals of the de minimis aids only',
    );
    await expectTableOf(client, deMinimisOnly);
    expect((await shownCards(client)).remaining).toBe(remainingBefore);
    await client.getByText('Ricerche: 18 / 20').waitFor();
    await client.getByLabel('Solo de minimis').uncheck();
  });

  it('the client downloads the spreadsheet and the PDF of the search, with the searched aids in them', async () => {
    const [heaviest] = taxCodesByAidCount(world.archive.truth) as [string];
    const aids = aidsOf(world.archive.truth, [heaviest]);
    await client.goto(`/documents?taxCode=${heaviest}&deMinimis=false&last3Years=false`);
    await waitForResults(client, [heaviest]);

    const sheet = await downloadByButton(client, 'Scarica Excel', downloads);
    expect(path.basename(sheet)).toMatch(new RegExp(`^aiuti-${heaviest}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(sheet);
    const rows = workbook.getWorksheet('Aiuti');
    if (!rows) throw new Error('the spreadsheet has no "Aiuti" sheet');
    const header = (rows.getRow(1).values as unknown[]).slice(1).map(String);
    const byId = new Map<string, unknown[]>();
    rows.eachRow((row, index) => {
      if (index === 1) return;
      const values = (row.values as unknown[]).slice(1);
      byId.set(String(values[header.indexOf('ID componente aiuto')]), values);
    });
    expect([...byId.keys()].sort()).toEqual(aids.map((aid) => aid.idComponenteAiuto).sort());
    // each aid's references in the workbook are the register file's
    const cell = (values: unknown[], name: string) => values[header.indexOf(name)] ?? '';
    for (const aid of aids) {
      const values = byId.get(aid.idComponenteAiuto)!;
      expect(
        ['COR', 'CAR', 'CUP', 'Codice regolamento', 'Regolamento', 'File del registro'].map((name) =>
          String(cell(values, name)),
        ),
      ).toEqual([aid.cor, aid.car, aid.cup, aid.codRegolamento, aid.desRegolamento, aid.sourceFile]);
      expect(cell(values, 'Elemento di aiuto')).toBe(aid.elementoDiAiutoCents / 100);
      expect(cell(values, 'Importo nominale')).toBe(aid.importoNominaleCents / 100);
    }

    // the screen's "Dettaglio aiuti" table: every aid's references read back equal the register file's
    await client.getByRole('tab', { name: 'Dettaglio aiuti' }).click();
    const detailTable = client.getByRole('table', { name: 'Dettaglio degli aiuti concessi' });
    await detailTable.waitFor();
    const onScreen = await readWindowedTable(detailTable);
    const amount = (text: string) => text.replace(/[^\d,-]/g, '');
    const euro = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');
    expect([...onScreen.keys()].sort()).toEqual(aids.map((aid) => aid.idComponenteAiuto).sort());
    for (const aid of aids) {
      const shown = onScreen.get(aid.idComponenteAiuto)!;
      expect({
        cor: shown['COR'],
        car: shown['CAR'],
        cup: shown['CUP'],
        regulation: shown['Regolamento']?.includes(aid.codRegolamento || aid.desRegolamento),
        nominal: amount(shown['Importo nominale'] ?? ''),
        element: amount(shown['Elemento di aiuto'] ?? ''),
        grantor: shown['Soggetto concedente'],
      }).toEqual({
        cor: aid.cor,
        car: aid.car,
        cup: aid.cup,
        regulation: true,
        nominal: euro(aid.importoNominaleCents),
        element: euro(aid.elementoDiAiutoCents),
        grantor: aid.soggettoConcedente,
      });
    }
    await client.getByRole('tab', { name: 'Sintesi' }).click();

    const pdf = await downloadByButton(client, 'Scarica PDF', downloads);
    expect(path.basename(pdf)).toMatch(new RegExp(`^aiuti-${heaviest}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    const text = await pdfText(pdf);
    expect(text).toContain(heaviest);
    const cards = expectedCards(aids);
    expect(text).toContain(heaviest);
    expect(text).toContain(`Documenti (${aids.length})`);
    // every row cites its aid by COR, with its regulation
    const pdfTokens = new Set(text.split(/\s+/));
    expect(aids.filter((aid) => !pdfTokens.has(aid.cor)).map((aid) => aid.cor)).toEqual([]);
    expect(aids.filter((aid) => !text.includes(aid.codRegolamento)).map((aid) => aid.cor)).toEqual([]);
    expect(text).toContain(cards.deMinimis.replace(/[^\d.,-]/g, ''));
    expect(text).toContain(cards.total.replace(/[^\d.,-]/g, ''));

    // anyone holding the PDF, signed in or not, finds it issued by the portal; a changed code is not
    const printed = /Codice di verifica ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z])/.exec(text)?.[1];
    expect(printed).toBeDefined();
    const stranger = await newContext(world.browser, world.portal.url);
    try {
      const page = await stranger.newPage();
      await page.goto(`/verifica/${printed}`);
      const issued = page.getByRole('status').filter({ hasText: 'Resoconto emesso dal portale' });
      await issued.waitFor();
      expect(await issued.textContent()).toContain(heaviest);
      const changed = printed!.slice(0, 5) + (printed![5] === '7' ? '8' : '7') + printed!.slice(6);
      await page.getByLabel('Codice di verifica').fill(changed);
      await page.getByRole('button', { name: 'Verifica' }).click();
      await page.getByText('Resoconto non riconosciuto').waitFor();
      expect(await page.getByText('Resoconto emesso dal portale').count()).toBe(0);
    } finally {
      await stranger.close();
    }
  });

  it('a favorite and a variation alert are set and removed', async () => {
    const [heaviest] = taxCodesByAidCount(world.archive.truth) as [string];
    await client.goto(`/documents?taxCode=${heaviest}&deMinimis=true&last3Years=false`);
    await waitForResults(client, [heaviest]);
    await client.getByRole('button', { name: 'Salva ricerca' }).click();
    await client.getByRole('button', { name: 'Rimuovi dai preferiti' }).waitFor();
    await client.getByRole('button', { name: 'Attiva avviso' }).click();
    await client.getByRole('button', { name: 'Disattiva avviso' }).waitFor();

    // the logo opens home, which offers the saved search rather than forcing it
    await client.getByRole('link', { name: /Portale Aiuti di Stato/ }).click();
    await client.getByRole('heading', { name: 'Avvisi di variazione' }).waitFor();
    await client.getByRole('link', { name: 'Riprendi l’ultima ricerca' }).click();
    await client.waitForURL(new RegExp(`/documents\\?taxCode=${heaviest}&deMinimis=true&last3Years=false`));
    await waitForResults(client, [heaviest]);
    await client.getByRole('button', { name: 'Rimuovi dai preferiti' }).click();
    await client.getByRole('status').filter({ hasText: 'Ricerca rimossa dai preferiti.' }).waitFor();
    await client.getByRole('button', { name: 'Salva ricerca' }).waitFor();

    // home lists the alert; removing asks first
    await client.getByRole('link', { name: /Portale Aiuti di Stato/ }).click();
    await client.getByRole('heading', { name: 'Avvisi di variazione' }).waitFor();
    await client.getByText(heaviest, { exact: true }).waitFor();
    await client.getByRole('button', { name: `Rimuovi l’avviso per ${heaviest}` }).click();
    const confirm = dialog(client, 'Rimuovere l’avviso?');
    await captureScreen(client, 'home-alert-remove', world.accessibility);
    await confirm.getByRole('button', { name: 'Conferma' }).click();
    await client.getByText('Nessun avviso attivo').waitFor();
  });

  it('at mobile width the chart is horizontal with the current month on top', async () => {
    const [heaviest] = taxCodesByAidCount(world.archive.truth) as [string];
    await client.goto(`/documents?taxCode=${heaviest}&deMinimis=false&last3Years=false`);
    await waitForResults(client, [heaviest]);
    await client.locator('.highcharts-column-series').first().waitFor();
    const desktopMonths = await client.locator('.highcharts-xaxis-labels text').allTextContents();
    await client.setViewportSize(MOBILE);
    await client.locator('.highcharts-bar-series').first().waitFor();
    const labels = client.locator('.highcharts-xaxis-labels text');
    const topsNow = async () =>
      Promise.all((await labels.all()).map(async (label) => (await label.boundingBox())?.y));
    // the bars come before the labels are laid out again for the phone: wait for the layout to settle
    await until(async () => {
      const now = await topsNow();
      return now[0] === Math.min(...now.map((top) => top ?? Infinity));
    }, 'the month labels laid out for the phone').catch(() => undefined); // the assertion reports
    const mobileMonths = await labels.allTextContents();
    const tops = await topsNow();
    await client.setViewportSize(DESKTOP);
    // Highcharts may skip labels when crowded: the current month, first on the left, is the top one
    expect(mobileMonths[0]).toBe(desktopMonths[0]);
    expect(tops[0]).toBe(Math.min(...tops.map((top) => top ?? Infinity)));
  });

  it('the client runs out of searches (U004, back home), expires (A002), and searches again after renewal', async () => {
    const [heaviest] = taxCodesByAidCount(world.archive.truth) as [string];
    // the admin leaves one search, through the settings dialog
    await admin.getByRole('link', { name: 'Gestione clienti' }).click();
    await admin.getByRole('button', { name: `Impostazioni di ${invited.email}` }).click();
    const settings = dialog(admin, 'Impostazioni cliente');
    await settings.getByLabel('Ricerche annuali rimanenti').fill('1');
    await settings.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(admin, 'Impostazioni aggiornate');

    await client.goto('/');
    await client.getByText('Ricerche: 1 / 20').waitFor();
    // two codes this client has not looked up today (the fewest aids: no earlier step searched them)
    const byCount = taxCodesByAidCount(world.archive.truth);
    const [fresh, fresher] = [byCount.at(-1), byCount.at(-2)] as [string, string];
    await client.getByLabel('Ultimi 3 anni').check();
    await searchOne(client, fresh);
    await waitForResults(client, [fresh]);
    await client.getByText('Ricerche esaurite: 0 / 20').waitFor();
    // the same company without the filter costs nothing: it was looked up today
    await client.getByLabel('Ultimi 3 anni').uncheck();
    await client.getByRole('button', { name: 'Avvia ricerca' }).click();
    await waitForResults(client, [fresh]);
    await client.getByText('Ricerche esaurite: 0 / 20').waitFor();
    // a company not looked up today is refused
    await searchOne(client, fresher);
    await expectMessage(client, 'Ricerche disponibili esaurite, contatti l’amministratore');
    await client.waitForURL((url) => url.pathname === '/');
    // and stays there with its reason, without bouncing back to the search
    await client.waitForTimeout(1500);
    expect(new URL(client.url()).pathname).toBe('/');
    await client.getByRole('alert').filter({ hasText: 'Ricerche disponibili esaurite' }).waitFor();
    await captureScreen(client, 'home-refused', world.accessibility);

    // the admin gives searches back but sets the end date in the past
    const yesterday = new Date(world.now().getTime() - 86_400_000);
    const typed = `${String(yesterday.getDate()).padStart(2, '0')}-${String(yesterday.getMonth() + 1).padStart(2, '0')}-${yesterday.getFullYear()}`;
    await admin.getByRole('button', { name: `Impostazioni di ${invited.email}` }).click();
    await settings.getByLabel('Ricerche annuali rimanenti').fill('5');
    await settings.getByLabel('Scadenza', { exact: true }).fill(typed);
    await settings.getByLabel('Scadenza', { exact: true }).press('Tab');
    await settings.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(admin, 'Impostazioni aggiornate');
    await admin
      .getByRole('row', { name: new RegExp(invited.email) })
      .getByText('Scaduto')
      .waitFor();

    // still signed in (home, after U004): a new search is refused with A002
    await client.getByLabel('Solo de minimis').check();
    await client.getByLabel('Ultimi 3 anni').check();
    await searchOne(client, heaviest);
    await client.getByText(EXPIRED_TEXT).first().waitFor();
    await captureScreen(client, 'documents-expired', world.accessibility);

    // reopening the page restores the session with a token refresh, which is refused (A002): the
    // login screen says why instead of signing out silently; signing in again is refused the same way
    const expired = client.getByRole('alert').filter({ hasText: EXPIRED_TEXT });
    await client.reload();
    await expectSignedOut(client);
    await expired.waitFor();
    await captureScreen(client, 'login-expired', world.accessibility);
    await signIn(client, invited.email, invited.password);
    await expired.waitFor();
    await expectSignedOut(client);

    // renewal: one more year
    await admin.getByRole('button', { name: `Impostazioni di ${invited.email}` }).click();
    // (shown in the dialog first, saved with «Salva», which closes it)
    await settings.getByRole('button', { name: 'Rinnova di un anno' }).click();
    await settings.getByRole('status').filter({ hasText: 'nuova scadenza' }).waitFor();
    await settings.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(admin, 'Impostazioni aggiornate');
    await settings.waitFor({ state: 'detached' });
    await admin
      .getByRole('row', { name: new RegExp(invited.email) })
      .getByText('Attivo')
      .waitFor();

    await signIn(client, invited.email, invited.password);
    await expectSignedIn(client, invited.email);
    await client.goto(`/documents?taxCode=${heaviest}&deMinimis=false&last3Years=true`);
    await waitForResults(client, [heaviest]);
    expect(await statValue(client, 'Numero documenti')).toBe(
      formatInteger(aidsOf(world.archive.truth, [heaviest]).length),
    );
    await until(async () => (await client.getByText(/^Ricerche: \d+ \/ 20$/).count()) === 1, 'counter');
  });

  it('an administrator replays the client’s searches, refusals and allowance changes on the audit screen', async () => {
    await admin.getByRole('link', { name: 'Registro delle attività' }).click();
    await admin.getByRole('heading', { name: 'Registro delle attività' }).waitFor();
    await admin.getByLabel('Utente').selectOption({ label: invited.email });
    const history = admin.getByRole('table', { name: 'Cronologia' });
    await history
      .getByRole('row', { name: /Rifiuto/ })
      .first()
      .waitFor();
    await history
      .getByRole('row', { name: /Abbonamento/ })
      .first()
      .waitFor();
    expect(await history.getByRole('row', { name: /Ricerca/ }).count()).toBeGreaterThan(0);
    await captureScreen(admin, 'audit', world.accessibility);
  });

  it('a session handed over at the same tab shows nothing of the previous user', async () => {
    await client.goto('/');
    await expectSignedIn(client, invited.email);
    await client.getByRole('button', { name: 'Esci' }).click();
    await expectSignedOut(client);
    await signIn(client, ADMIN.email, ADMIN.password);
    await expectSignedIn(client, ADMIN.email);
    expect(await client.getByText(/^Ricerche: \d+ \/ 20$/).count()).toBe(0);
    expect(await client.getByText(invited.email).count()).toBe(0);
    expect(await client.getByText(/^Risultati per /).count()).toBe(0);
    await client.getByRole('button', { name: 'Esci' }).click();
    await expectSignedOut(client);
    await signIn(client, invited.email, invited.password);
    await expectSignedIn(client, invited.email);
  });

  it('in live mode a multiple search never fails because the register pauses: each code says where its rows come from', async () => {
    const api = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
    await api.call('POST', '/documents/data-source', { useLiveData: true });
    try {
      const [heaviest, second] = taxCodesByAidCount(world.archive.truth) as [string, string];
      // the register asks for 30 s between look-ups: the first code comes live, the second from the archive
      await client.goto(`/documents?taxCode=${heaviest},${second}&deMinimis=false&last3Years=false`);
      await waitForResults(client, [heaviest, second]);
      const notice = client.getByRole('status', { name: 'Provenienza dei dati' });
      await notice.waitFor();
      const lines = await notice.getByRole('listitem').allTextContents();
      expect(lines[0]).toMatch(new RegExp(`^${heaviest}: dati in tempo reale`));
      expect(lines[1]).toMatch(new RegExp(`^${second}: dati dell’archivio aggiornato al .*in coda`));
      // live or archived, the same company has the same aids and the same de minimis left
      await expectCardsOf(client, aidsOf(world.archive.truth, [heaviest, second]), [heaviest, second]);
      await captureScreen(client, 'documents-live', world.accessibility);
    } finally {
      await api.call('POST', '/documents/data-source', { useLiveData: false });
    }
  });

  it('has no serious or critical accessibility violation on any screen', () => {
    expect(world.accessibility.size).toBeGreaterThan(0);
    expect(describeViolations(world.accessibility)).toEqual([]);
  });
});

/**
 * Every row of a windowed table (only the rows in view are in the DOM) as header → cell text, keyed
 * by the component id column: scrolls its container a screen at a time to the end.
 */
async function readWindowedTable(table: Locator): Promise<Map<string, Record<string, string>>> {
  const rows = new Map<string, Record<string, string>>();
  for (let round = 0; round < 1_000; round += 1) {
    const page = await table.evaluate((element) => {
      const headers = [...element.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
      const cells = [...element.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? ''),
      );
      const scroller = element.closest('[role="region"]') ?? element.parentElement!;
      const before = scroller.scrollTop;
      scroller.scrollTop = before + scroller.clientHeight;
      return { headers, cells, moved: scroller.scrollTop !== before };
    });
    for (const cells of page.cells) {
      if (cells.length !== page.headers.length) continue; // a spacer row
      const row = Object.fromEntries(
        page.headers.map((header, i) => [header.replace(/[▲▼↕]/g, '').trim(), cells[i]!]),
      );
      const id = row['ID componente aiuto'];
      if (id) rows.set(id, row);
    }
    if (!page.moved) break;
    await table.page().waitForTimeout(50);
  }
  return rows;
}
