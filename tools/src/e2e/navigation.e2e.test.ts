/**
 * Browser journey of going home once a search is saved (issue 33): a client saves a search and sets a
 * variation alert, each confirmed by a notification; the logo and the «Ricerca» item then open home
 * (not the saved results), which offers the saved search and lists the alert by its company's name,
 * with what it watches, since when and to which address; the alert's link opens that company's search.
 * An administrator's navigation bar holds on one line at 1280 px, and opens as a menu at 390 px.
 * One portal, steps in order.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import {
  ADMIN,
  aidsOf,
  captureScreen,
  DESKTOP,
  describeViolations,
  expectSignedIn,
  inviteClientByApi,
  MOBILE,
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

const HOME = 'Ricerca aiuti di Stato';

let world: World;
let context: BrowserContext;
let client: Page;
let invited: InvitedClient;
let code: string;
let names: Set<string>;

beforeAll(async () => {
  world = await startWorld();
  const api = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
  await syncArchiveByApi(api);
  [code] = taxCodesByAidCount(world.archive.truth) as [string];
  names = new Set(aidsOf(world.archive.truth, [code]).map((aid) => aid.denominazioneBeneficiario.trim()));
  invited = await inviteClientByApi(api, 'studio.neri@example.it', {
    searches: 20,
    enableVariationAlerts: true,
  });
  context = await newContext(world.browser, world.portal.url);
  client = await context.newPage();
});

afterAll(async () => {
  await world?.stop();
});

const onHome = async (page: Page) => {
  await page.getByRole('heading', { name: HOME }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
};
const navItem = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Menu principale' })
    .getByRole('link', { name: 'Ricerca', exact: true });
const results = (page: Page) => page.getByRole('heading', { name: `Risultati per ${code}`, exact: false });

describe('home once a search is saved', () => {
  it('saving the search and setting an alert are each confirmed by a notification', async () => {
    await signIn(client, invited.email, invited.password);
    await expectSignedIn(client, invited.email);
    await onHome(client);
    await client.getByLabel('Codice fiscale', { exact: true }).fill(code);
    await client.getByRole('button', { name: 'Avvia ricerca' }).click();
    await results(client).waitFor();

    await client.getByRole('button', { name: 'Salva ricerca' }).click();
    const saved = client.getByRole('status').filter({ hasText: 'Ricerca salvata' });
    await saved.waitFor();
    expect(await saved.getAttribute('aria-live')).toBe('polite');
    await client.getByRole('button', { name: 'Rimuovi dai preferiti' }).waitFor();

    await client.getByRole('button', { name: 'Attiva avviso' }).click();
    await client
      .getByRole('status')
      .filter({ hasText: `Avviso di variazione attivato per ${code}` })
      .filter({ hasText: invited.email })
      .waitFor();
    await client.getByRole('button', { name: 'Disattiva avviso' }).waitFor();
  });

  it('the logo opens home, which offers the saved search and names the alert’s company', async () => {
    await client.getByRole('link', { name: /Portale Aiuti di Stato/ }).click();
    await onHome(client);
    const resume = client.getByRole('link', { name: 'Riprendi l’ultima ricerca' });
    await resume.waitFor();
    expect(await resume.getAttribute('href')).toBe(
      `/documents?taxCode=${code}&deMinimis=false&last3Years=false`,
    );

    const alerts = client.getByRole('region', { name: 'Avvisi di variazione' });
    const item = alerts.locator('.alerts__item');
    await item.waitFor();
    const company = item.getByRole('link').first();
    const shown = ((await company.textContent()) ?? '').trim();
    expect(names.has(shown)).toBe(true);
    const text = (await item.textContent()) ?? '';
    expect(text).toContain(code);
    expect(text).toContain('Nuovi aiuti, modifiche o revoche per questo codice fiscale');
    expect(text).toMatch(/Attivo dal:?\s*\d{2}-\d{2}-\d{4}/);
    expect(text).toContain('Nessuna variazione finora');
    expect(text).toContain(invited.email);
    await captureScreen(client, 'home-saved-and-alert', world.accessibility);
  });

  it('«Ricerca» opens home from the results, and the alert’s company opens its search', async () => {
    await client.getByRole('link', { name: 'Riprendi l’ultima ricerca' }).click();
    await results(client).waitFor();
    await navItem(client).click();
    await onHome(client);
    expect(await navItem(client).getAttribute('aria-current')).toBe('page');

    const alerts = client.getByRole('region', { name: 'Avvisi di variazione' });
    await alerts.getByRole('link').first().click();
    await client.waitForURL(new RegExp(`/documents\\?taxCode=${code}&deMinimis=false&last3Years=false$`));
    await results(client).waitFor();
    // and home is still home after a reload of the results
    await client.reload();
    await results(client).waitFor();
    await client.getByRole('link', { name: /Portale Aiuti di Stato/ }).click();
    await onHome(client);
  });

  it('at 1280 px an administrator’s navigation bar is one line: brand, every item, e-mail and buttons', async () => {
    const adminContext = await newContext(world.browser, world.portal.url);
    const admin = await adminContext.newPage();
    await admin.setViewportSize(DESKTOP);
    await signIn(admin, ADMIN.email, ADMIN.password);
    await expectSignedIn(admin, ADMIN.email);
    const menu = admin.getByRole('navigation', { name: 'Menu principale' });
    for (const name of ['Gestione clienti', 'Archivio', 'Registro delle attività'])
      await menu.getByRole('link', { name, exact: true }).waitFor();
    const items: { name: string; locator: Locator }[] = [
      { name: 'brand', locator: admin.getByRole('link', { name: /Portale Aiuti di Stato/ }) },
      ...(await menu.locator(':scope > *').all()).map((locator, i) => ({ name: `item ${i + 1}`, locator })),
    ];
    const boxes = await Promise.all(
      items.map(async ({ name, locator }) => {
        const box = await locator.boundingBox();
        if (!box) throw new Error(`${name} is not laid out`);
        return { name: `${name} «${((await locator.textContent()) ?? '').trim()}»`, ...box };
      }),
    );
    expect(boxes.length).toBe(9); // brand, six links, the account menu, «Esci»
    // one line: a horizontal line crosses every item (items of different heights are centred on it)
    const lowestTop = Math.max(...boxes.map((box) => box.y));
    const below = boxes.filter((box) => box.y + box.height <= lowestTop + 0.5).map((box) => box.name);
    expect(below).toEqual([]);
    // ...and none runs past the window's right edge
    const past = boxes.filter((box) => box.x + box.width > DESKTOP.width + 0.5).map((box) => box.name);
    expect(past).toEqual([]);
    await captureScreen(admin, 'nav-admin-desktop', world.accessibility);

    // at 390 px the same items are a menu, which opens the audit screen
    await admin.setViewportSize(MOBILE);
    await admin.getByRole('button', { name: 'Apri il menu' }).click();
    await admin.getByRole('menuitem', { name: 'Registro delle attività' }).click();
    await admin.getByRole('heading', { name: 'Registro delle attività' }).waitFor();
    expect(
      await admin.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
    ).toBeLessThanOrEqual(0);
    await adminContext.close();
  });

  it('has no serious or critical accessibility violation on the screens seen', () => {
    expect(world.accessibility.size).toBeGreaterThan(0);
    expect(describeViolations(world.accessibility)).toEqual([]);
  });
});
