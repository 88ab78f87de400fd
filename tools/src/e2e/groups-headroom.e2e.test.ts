/**
 * Browser journey of the single undertaking (impresa unica): a client groups two companies of the
 * archive on "Imprese uniche", searches the group, asks "Residuo alla data" on the results page and
 * reads the same headroom, limits and shares the API answers for that group; downloads the Excel with
 * the group's "Residuo alla data" sheet; deletes the group. One portal, steps in order.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import {
  addYears,
  isoToItalianDay,
  todayInRome,
  type HeadroomDto,
  type UndertakingGroupDto,
} from '@rna/domain';
import {
  ADMIN,
  captureScreen,
  describeViolations,
  downloadByButton,
  expectMessage,
  inviteClientByApi,
  newContext,
  signIn,
  signInByApi,
  startWorld,
  syncArchiveByApi,
  taxCodesByAidCount,
  type InvitedClient,
  type World,
} from './harness';

jest.setTimeout(180_000);

let world: World;
let context: BrowserContext;
let client: Page;
let invited: InvitedClient;
let first: string;
let second: string;
let files: string;

/** The planned grant day asked for: a year after today (the pinned test clock's today). */
let PLANNED = '';
let PLANNED_IT = '';

/** '10.000,00 €' → 10000 */
const euroOf = (text: string) => Number(text.replace(/[^\d,-]/g, '').replace(',', '.'));

beforeAll(async () => {
  world = await startWorld();
  PLANNED = addYears(todayInRome(new Date()), 1);
  PLANNED_IT = isoToItalianDay(PLANNED);
  files = await mkdtemp(path.join(os.tmpdir(), 'rna-e2e-groups-'));
  const admin = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
  await syncArchiveByApi(admin);
  [first, second] = taxCodesByAidCount(world.archive.truth) as [string, string];
  invited = await inviteClientByApi(admin, 'studio.gialli@example.it', { searches: 20, pdfEnabled: true });
  context = await newContext(world.browser, world.portal.url);
  client = await context.newPage();
});

afterAll(async () => {
  await world?.stop();
  if (files) await rm(files, { recursive: true, force: true });
});

describe('a single undertaking in a real browser', () => {
  it('groups two companies, searches them together and reads the group’s headroom as the API counts it', async () => {
    await signIn(client, invited.email, invited.password);
    await client.getByRole('navigation').getByRole('link', { name: 'Imprese uniche' }).click();
    await client.getByRole('heading', { name: 'Imprese uniche', level: 1 }).waitFor();
    await client.getByText('Non ha ancora creato imprese uniche.').waitFor();

    await client.getByRole('button', { name: 'Nuova impresa unica' }).first().click();
    const dialog = client.getByRole('dialog');
    await dialog.getByLabel('Nome').fill('Gruppo Gialli');
    await dialog.getByLabel(/Incolli più codici fiscali/).fill(`${first}\n${second}`);
    await dialog.getByRole('button', { name: 'Aggiungi all’elenco' }).click();
    await dialog.getByRole('button', { name: 'Crea' }).click();
    await expectMessage(client, 'Impresa unica creata');
    await client.getByText('Gruppo Gialli').waitFor();
    await captureScreen(client, 'groups-list', world.accessibility);

    await client
      .getByRole('link', { name: 'Cerca Gruppo Gialli' })
      .or(client.getByRole('button', { name: 'Cerca Gruppo Gialli' }))
      .click();
    await client.getByRole('heading', { name: 'Residuo alla data' }).waitFor();
    // a planned grant in the agricultural regime, a year and more from now
    await client.getByRole('textbox', { name: 'Data prevista di concessione' }).fill(PLANNED_IT);
    await client.getByLabel('Regime de minimis').selectOption('AGRICULTURE');
    await client.getByRole('button', { name: 'Calcola il residuo' }).click();
    const figure = client.locator('.headroom__amount');
    await figure.waitFor();

    // the same figures from the API, for the group, today, regime GENERAL (free: searched today)
    const api = await signInByApi(world.portal.url, invited.email, invited.password);
    const [group] = await api.call<UndertakingGroupDto[]>('GET', '/groups');
    const answer = await api.call<HeadroomDto>(
      'GET',
      `/de-minimis/headroom?group=${group!.id}&date=${PLANNED}&regime=AGRICULTURE`,
    );
    expect(answer.taxCodes).toEqual([first, second]);
    expect(answer.limits.map((limit) => limit.regimes.join('+'))).toEqual([
      'AGRICULTURE',
      'GENERAL+AGRICULTURE+FISHERIES',
    ]);
    expect(euroOf((await figure.textContent()) ?? '')).toBe(Number(answer.headroom));
    await client.getByText('Impresa unica «Gruppo Gialli»', { exact: false }).first().waitFor();
    // each member's share is listed
    for (const code of [first, second])
      await client.locator('.headroom').getByText(code, { exact: false }).first().waitFor();
    await captureScreen(client, 'headroom-panel', world.accessibility);
  });

  it('downloads the Excel with the group’s headroom sheet', async () => {
    const file = await downloadByButton(client, 'Scarica Excel', files);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('Residuo alla data');
    expect(sheet).toBeDefined();
    expect(String(sheet!.getRow(1).getCell(1).value)).toBe('Impresa unica «Gruppo Gialli»');
    // the headroom of the day and regime computed on the screen
    const rows: string[][] = [];
    // dates are date cells (shown dd-mm-yyyy): read back as the day they hold
    const text = (value: unknown) =>
      value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
    sheet!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map(text)));
    expect(rows).toContainEqual(['Data prevista di concessione', PLANNED]);
    expect(rows).toContainEqual(['Regime', 'Agricoltura']);
  });

  it('has no serious or critical accessibility violation on either screen', () => {
    expect(world.accessibility.size).toBeGreaterThan(0);
    expect(describeViolations(world.accessibility)).toEqual([]);
  });
});
