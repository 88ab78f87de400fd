/**
 * Browser journeys of the accounts features: sign-in, invitation by mail and the first sign-in (the
 * invitation code only opens the choice of a password, and stops working once it is chosen), the
 * clients screen and its dialogs, logos, bad input on every form, the mobile navigation, logout
 * across tabs and the access token expiring mid-session. The steps share one portal and run in
 * order (a journey: the client invited in one step signs in in the next).
 */
import type { BrowserContext, Page, Response } from 'playwright-core';
import {
  ADMIN,
  captureScreen,
  describeViolations,
  dialog,
  expectMessage,
  expectSignedIn,
  expectSignedOut,
  MOBILE,
  newContext,
  signIn,
  signInByApi,
  startWorld,
  statValue,
  until,
  type World,
} from './harness';

jest.setTimeout(90_000);

const CLIENT_EMAIL = 'studio.rossi@example.it';
/** chosen at the first sign-in, in place of the invitation code */
const CLIENT_CHOSEN_PASSWORD = 'Scelta-al-primo-accesso-7';
const CLIENT_NEW_PASSWORD = 'Nuova-password-9';
/** A 1×1 PNG. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

let world: World;
let adminContext: BrowserContext;
let admin: Page;
let invitationCode = '';

beforeAll(async () => {
  world = await startWorld();
  adminContext = await newContext(world.browser, world.portal.url);
  admin = await adminContext.newPage();
});

afterAll(async () => {
  await world?.stop();
});

async function clientsInStore(): Promise<number> {
  return (await world.portal.stores.documents.collection('clients').find()).length;
}

describe('accounts in a real browser', () => {
  it('the signed-out forms refuse bad input with the spec’s messages', async () => {
    const page = await adminContext.newPage();
    await page.goto('/');
    await captureScreen(page, 'login', world.accessibility);

    await page.getByRole('button', { name: 'Accedi' }).click();
    await expectMessage(page, 'L’email è obbligatoria');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Accedi' }).click();
    await expectMessage(page, 'È necessario prendere visione del documento di responsabilità'); // C002

    await page.getByRole('button', { name: 'Leggi il documento' }).click();
    await dialog(page, 'Attribuzione e limitazione di responsabilità').waitFor();
    await captureScreen(page, 'login-disclaimer', world.accessibility);
    await page.keyboard.press('Escape');
    await dialog(page, 'Attribuzione e limitazione di responsabilità').waitFor({ state: 'detached' });

    await signIn(page, ADMIN.email, 'wrong-password-1');
    await expectMessage(page, 'Credenziali non valide'); // A001
    await expectSignedOut(page);

    await page.getByRole('link', { name: 'Password dimenticata?' }).click();
    await page.getByRole('heading', { name: 'Recupero password' }).waitFor();
    await captureScreen(page, 'forgot', world.accessibility);
    await page.getByLabel('Email').fill('non-una-email');
    await page.getByRole('button', { name: 'Invia' }).click();
    await expectMessage(page, 'Inserisca un indirizzo email valido');

    // without a code the reset page sends the user to the login
    await page.goto('/reset-password');
    await expectSignedOut(page);
    await page.goto('/reset-password?code=abc');
    await page.getByRole('heading', { name: 'Nuova password' }).waitFor();
    await captureScreen(page, 'reset-password', world.accessibility);
    await page.getByLabel('Nuova password').fill('lunghezza-ok-1');
    await page.getByLabel('Conferma password').fill('lunghezza-ok-2');
    await page.getByRole('button', { name: 'Imposta password' }).click();
    await expectMessage(page, 'Le password non coincidono'); // C001
    // a code that is not (or no longer) valid: no dead end, and no word of an invitation
    await page.getByLabel('Conferma password').fill('lunghezza-ok-1');
    await page.getByRole('button', { name: 'Imposta password' }).click();
    await expectMessage(page, /non è valido o è scaduto/); // U003
    expect(await page.getByText(/invit/i).count()).toBe(0);
    await captureScreen(page, 'reset-password-invalid-link', world.accessibility);
    await page.getByRole('link', { name: 'Richieda un nuovo collegamento' }).click();
    await page.getByRole('heading', { name: 'Recupero password' }).waitFor();
    await page.close();
  });

  it('an admin signs in and invites a client; bad invitations save nothing', async () => {
    await signIn(admin, ADMIN.email, ADMIN.password);
    await expectSignedIn(admin, ADMIN.email);
    await admin.getByRole('heading', { name: 'Ricerca aiuti di Stato' }).waitFor();
    await captureScreen(admin, 'home-admin', world.accessibility);

    await admin.getByRole('link', { name: 'Gestione clienti' }).click();
    await admin.getByRole('heading', { name: 'Gestione clienti' }).waitFor();
    // '—' while the list loads, then its count
    await until(async () => (await statValue(admin, 'Clienti totali')) === '0', 'no client listed');
    await captureScreen(admin, 'clients', world.accessibility);

    await admin.getByRole('button', { name: 'Invita cliente' }).click();
    const invite = dialog(admin, 'Invita un cliente');
    await invite.getByRole('button', { name: 'Invia invito' }).click();
    await expectMessage(admin, 'L’email è obbligatoria');
    await invite.getByLabel('Email').fill('studio.rossi@');
    await invite.getByRole('button', { name: 'Invia invito' }).click();
    await expectMessage(admin, 'Inserisca un indirizzo email valido');
    await captureScreen(admin, 'clients-invite', world.accessibility);
    expect(await clientsInStore()).toBe(0);

    await invite.getByLabel('Email').fill(CLIENT_EMAIL);
    await invite.getByRole('button', { name: 'Invia invito' }).click();
    // the code is shown this once, in the dialog, as the mail carries it
    const invited = dialog(admin, 'Invito inviato');
    await invited.getByText(`L’invito è stato inviato a ${CLIENT_EMAIL}`).waitFor();
    const shownCode = ((await invited.locator('code').textContent()) ?? '').trim();
    await captureScreen(admin, 'clients-invited', world.accessibility);
    await invited.getByRole('button', { name: 'Fatto' }).click();
    await invited.waitFor({ state: 'detached' });
    await until(async () => (await statValue(admin, 'Clienti totali')) === '1', 'one client listed');

    const mail = await world.smtp.waitFor(CLIENT_EMAIL);
    expect(mail.subject).toBe('Invito al Portale Aiuti di Stato');
    expect(mail.text).toContain('Al primo accesso dovrà scegliere una nuova password');
    invitationCode = /Codice di invito: (\S+)/.exec(mail.text)?.[1] ?? '';
    expect(invitationCode).not.toBe('');
    expect(shownCode).toBe(invitationCode);

    // the same email again: U002, and still one client
    await admin.getByRole('button', { name: 'Invita cliente' }).click();
    await invite.getByLabel('Email').fill(CLIENT_EMAIL.toUpperCase());
    await invite.getByRole('button', { name: 'Invia invito' }).click();
    await expectMessage(admin, 'Esiste già un utente con questa email');
    await invite.getByRole('button', { name: 'Annulla' }).click();
    expect(await clientsInStore()).toBe(1);

    await admin.getByRole('tab', { name: 'Clienti in attesa' }).click();
    expect(admin.url()).toContain('tabIndex=1');
    const waitingRow = admin.getByRole('row', { name: new RegExp(CLIENT_EMAIL) });
    await waitingRow.getByText(/^In attesa del primo accesso \(invitato il \d{2}-\d{2}-\d{4}\)$/).waitFor();
    await captureScreen(admin, 'clients-waiting', world.accessibility);
    // never the code in either list
    expect(await admin.getByText(invitationCode).count()).toBe(0);
    await admin.getByRole('tab', { name: 'Tutti i clienti' }).click();
    await admin
      .getByRole('row', { name: new RegExp(CLIENT_EMAIL) })
      .getByText(/In attesa del primo accesso/)
      .waitFor();
    expect(await admin.getByText(invitationCode).count()).toBe(0);
  });

  it('the client signs in with the invitation code and must choose a password; then the code is refused', async () => {
    const context = await newContext(world.browser, world.portal.url);
    const client = await context.newPage();
    await signIn(client, CLIENT_EMAIL, invitationCode);
    await client.getByRole('heading', { name: 'Scelga la sua password' }).waitFor();
    await captureScreen(client, 'first-password', world.accessibility);
    // nothing else opens meanwhile: a reload goes back to the sign-in
    expect(await client.locator('.nav-bar__email').count()).toBe(0);

    await client.getByLabel('Nuova password').fill('corta');
    await client.getByLabel('Conferma password').fill('corta');
    await client.getByRole('button', { name: 'Salva e accedi' }).click();
    await expectMessage(client, 'La password deve avere almeno 8 caratteri');
    await client.getByLabel('Nuova password').fill(invitationCode);
    await client.getByLabel('Conferma password').fill(invitationCode);
    await client.getByRole('button', { name: 'Salva e accedi' }).click();
    await expectMessage(
      client,
      'Al primo accesso deve scegliere una nuova password, diversa dal codice di invito',
    ); // A004
    await client.getByLabel('Nuova password').fill(CLIENT_CHOSEN_PASSWORD);
    await client.getByLabel('Conferma password').fill(`${CLIENT_CHOSEN_PASSWORD}x`);
    await client.getByRole('button', { name: 'Salva e accedi' }).click();
    await expectMessage(client, 'Le password non coincidono'); // C001
    await client.getByLabel('Conferma password').fill(CLIENT_CHOSEN_PASSWORD);
    await client.getByRole('button', { name: 'Salva e accedi' }).click();

    // in, on the home page
    await expectSignedIn(client, CLIENT_EMAIL);
    await client.getByText(/^Ricerche: \d+ \/ \d+$/).waitFor();
    await client.getByRole('button', { name: 'Esci' }).click();
    await expectSignedOut(client);

    await signIn(client, CLIENT_EMAIL, invitationCode);
    await expectMessage(client, 'Credenziali non valide');
    await expectSignedOut(client);
    await signIn(client, CLIENT_EMAIL, CLIENT_CHOSEN_PASSWORD);
    await expectSignedIn(client, CLIENT_EMAIL);
    expect(await client.getByRole('heading', { name: 'Scelga la sua password' }).count()).toBe(0);
    await context.close();

    // the admin sees the client active, with the day of its first sign-in
    await admin.reload();
    await admin
      .getByRole('row', { name: new RegExp(CLIENT_EMAIL) })
      .getByText('Primo accesso eseguito')
      .waitFor();
  });

  it('on a phone (390 px) a second invited client chooses its password on a form that fits, and is in', async () => {
    const email = 'studio.bruni@example.it';
    const chosen = 'Scelta-dal-telefono-3';
    const api = await signInByApi(world.portal.url, ADMIN.email, ADMIN.password);
    const { invitationCode: code } = await api.call<{ invitationCode: string }>('POST', '/clients/invite', {
      email,
    });
    const context = await newContext(world.browser, world.portal.url);
    const phone = await context.newPage();
    await phone.setViewportSize(MOBILE);
    await signIn(phone, email, code);
    const heading = phone.getByRole('heading', { name: 'Scelga la sua password' });
    await heading.waitFor();

    // the whole form on the screen: nothing past its right edge, nothing to scroll sideways
    const form = phone.locator('form', { has: heading });
    const parts = [
      form,
      heading,
      phone.getByLabel('Nuova password'),
      phone.getByLabel('Conferma password'),
      phone.getByRole('button', { name: 'Salva e accedi' }),
    ];
    const outside: string[] = [];
    for (const part of parts) {
      const box = await part.boundingBox();
      if (!box || box.x < 0 || box.x + box.width > MOBILE.width)
        outside.push(`${String(part)}: ${JSON.stringify(box)}`);
    }
    expect(outside).toEqual([]);
    expect(
      await phone.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
    ).toBeLessThanOrEqual(0);

    await phone.getByLabel('Nuova password').fill(chosen);
    await phone.getByLabel('Conferma password').fill(chosen);
    await phone.getByRole('button', { name: 'Salva e accedi' }).click();
    // in, on the home page; on a phone the menu names who is signed in
    await phone.getByRole('heading', { name: 'Ricerca aiuti di Stato' }).waitFor();
    await phone.getByRole('button', { name: 'Apri il menu' }).click();
    await phone.getByRole('menu').getByRole('menuitem', { name: email }).waitFor();
    expect(await heading.count()).toBe(0);
    await context.close();
    // the chosen password is the one that signs in from now on
    await signInByApi(world.portal.url, email, chosen);
  });

  it('the client changes its password from the menu', async () => {
    const context = await newContext(world.browser, world.portal.url);
    const client = await context.newPage();
    await signIn(client, CLIENT_EMAIL, CLIENT_CHOSEN_PASSWORD);
    await expectSignedIn(client, CLIENT_EMAIL);
    await client.getByText(/^Ricerche: \d+ \/ \d+$/).waitFor();
    await captureScreen(client, 'home-client', world.accessibility);

    // the account menu, opened by the address in the navigation bar
    await client.getByRole('button', { name: CLIENT_EMAIL }).click();
    await client.getByRole('menuitem', { name: 'Cambia password' }).click();
    const change = dialog(client, 'Cambia password');
    await change.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(client, 'Compili tutti i campi password');
    await change.getByLabel('Password attuale').fill(CLIENT_CHOSEN_PASSWORD);
    await change.getByLabel('Nuova password', { exact: true }).fill('corta');
    await change.getByLabel('Conferma nuova password').fill('corta');
    await change.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(client, 'La password deve avere almeno 8 caratteri');
    await change.getByLabel('Nuova password', { exact: true }).fill(CLIENT_NEW_PASSWORD);
    await change.getByLabel('Conferma nuova password').fill(`${CLIENT_NEW_PASSWORD}x`);
    await change.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(client, 'Le password non coincidono');
    await captureScreen(client, 'change-password', world.accessibility);
    await change.getByLabel('Conferma nuova password').fill(CLIENT_NEW_PASSWORD);
    await change.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(client, 'Password modificata');

    await client.getByRole('button', { name: 'Esci' }).click();
    await expectSignedOut(client);
    await signIn(client, CLIENT_EMAIL, CLIENT_CHOSEN_PASSWORD);
    await expectMessage(client, 'Credenziali non valide');
    await signIn(client, CLIENT_EMAIL, CLIENT_NEW_PASSWORD);
    await expectSignedIn(client, CLIENT_EMAIL);
    await context.close();

    // the admin sees the client active
    await admin.getByRole('tab', { name: 'Tutti i clienti' }).click();
    await admin.reload();
    await admin
      .getByRole('row', { name: new RegExp(CLIENT_EMAIL) })
      .getByText('Attivo')
      .waitFor();
  });

  it('client settings and logos refuse bad input and keep what was saved', async () => {
    await admin.getByRole('button', { name: `Impostazioni di ${CLIENT_EMAIL}` }).click();
    const settings = dialog(admin, 'Impostazioni cliente');
    const remainingBefore = await settings.getByLabel('Ricerche annuali rimanenti').inputValue();
    await settings.getByLabel('Ricerche annuali rimanenti').fill('-1');
    await settings.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(admin, 'Le ricerche devono essere un numero intero maggiore o uguale a 0');
    await settings.getByLabel('Ricerche annuali rimanenti').fill(remainingBefore);
    await settings.getByLabel('Scadenza', { exact: true }).fill('');
    await settings.getByLabel('Scadenza', { exact: true }).press('Tab');
    await settings.getByRole('button', { name: 'Salva' }).click();
    await expectMessage(admin, 'La scadenza è obbligatoria');
    await settings.getByLabel('Scadenza', { exact: true }).fill('31-02-2030');
    await settings.getByLabel('Scadenza', { exact: true }).press('Tab');
    await expectMessage(admin, 'Data non valida');
    await captureScreen(admin, 'client-settings', world.accessibility);
    await admin.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });

    await admin.getByRole('button', { name: `Impostazioni di ${CLIENT_EMAIL}` }).click();
    expect(await settings.getByLabel('Ricerche annuali rimanenti').inputValue()).toBe(remainingBefore);
    // Escape closes the dialog even when focus is no longer inside it (SPEC: all dialogs)
    await admin.evaluate('document.activeElement && document.activeElement.blur()');
    expect(await admin.evaluate('document.activeElement === document.body')).toBe(true);
    await admin.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });

    await admin.getByRole('tab', { name: 'Loghi' }).click();
    await admin.getByText('Inserisca prima il nome del logo').waitFor();
    expect(await admin.getByLabel('File del logo').isDisabled()).toBe(true);
    await admin.getByLabel('Nome del logo').fill('Studio Rossi');
    await admin.getByLabel('File del logo').setInputFiles({
      name: 'logo.gif',
      mimeType: 'image/gif',
      buffer: Buffer.from('GIF89a'),
    });
    await admin.getByRole('alert').filter({ hasText: 'Formati accettati: png, jpg, jpeg' }).waitFor();
    await admin.getByLabel('File del logo').setInputFiles({
      name: 'studio-rossi.png',
      mimeType: 'image/png',
      buffer: TINY_PNG,
    });
    await expectMessage(admin, 'Logo caricato');
    await admin.getByText('Studio Rossi').waitFor();
    await captureScreen(admin, 'clients-logos', world.accessibility);

    const logoCard = admin.locator('.logos__grid li', { hasText: 'Studio Rossi' });
    await logoCard.getByRole('button', { name: /Proprietà PDF/ }).click();
    const pdf = dialog(admin, 'Proprietà PDF – Studio Rossi');
    await pdf.getByLabel('Colore principale').fill('#12345G');
    await pdf.getByLabel('Piè di pagina 1').fill('Studio Rossi – consulenza');
    await pdf.getByLabel('Piè di pagina 2').fill('Via Roma 1, Milano');
    await pdf.getByRole('button', { name: /Salva|Conferma/ }).click();
    await expectMessage(admin, 'Colore non valido: usi il formato #RRGGBB');
    // the preview shows the footer lines as the report will print them
    await pdf
      .getByRole('figure', { name: 'Anteprima del resoconto PDF' })
      .getByText('Via Roma 1, Milano')
      .waitFor();
    await captureScreen(admin, 'logo-pdf-properties', world.accessibility);
    await pdf.getByLabel('Colore principale').fill('#1f4e8c');
    await pdf.getByRole('button', { name: /Salva|Conferma/ }).click();
    await expectMessage(admin, 'Proprietà PDF aggiornate');
  });

  it('at mobile width the navigation is a dropdown menu', async () => {
    await admin.setViewportSize(MOBILE);
    await admin.goto('/');
    expect(await admin.getByRole('navigation', { name: 'Menu principale' }).count()).toBe(0);
    await admin.getByRole('button', { name: 'Apri il menu' }).click();
    const menu = admin.getByRole('menu');
    await menu.getByRole('menuitem', { name: ADMIN.email }).waitFor();
    await captureScreen(admin, 'nav-menu', world.accessibility);
    await admin.setViewportSize(MOBILE);
    if (!(await menu.isVisible())) await admin.getByRole('button', { name: 'Apri il menu' }).click();
    await menu.getByRole('menuitem', { name: 'Archivio' }).click();
    await admin.waitForURL(/\/sync$/);
    await admin.getByRole('heading', { name: 'Archivio e sincronizzazione' }).waitFor();
    await admin.setViewportSize({ width: 1280, height: 800 });
  });

  it('an expired access token is refreshed once for several parallel calls', async () => {
    await admin.goto('/');
    await expectSignedIn(admin, ADMIN.email);
    // the home page's own calls (saved searches, bulk jobs…) answered first: the expired token must
    // meet the archive screen's parallel calls, not a late one of the home page that refreshes it alone
    await admin.waitForLoadState('networkidle');
    world.advanceServerClock(16 * 60_000); // past the 15-minute access token
    const refreshes: Response[] = [];
    const unauthorized = new Set<string>();
    const retriedOk = new Set<string>();
    const onResponse = (response: Response) => {
      const url = response.url();
      if (url.endsWith('/api/auth/refresh')) refreshes.push(response);
      else if (url.includes('/api/') && response.status() === 401) unauthorized.add(url);
      else if (unauthorized.has(url) && response.ok()) retriedOk.add(url);
    };
    admin.on('response', onResponse);
    // the archive screen loads files, stats, history, data source and status at once
    await admin.getByRole('link', { name: 'Archivio' }).click();
    await admin.getByRole('heading', { name: 'Archivio e sincronizzazione' }).waitFor();
    await until(
      async () => unauthorized.size >= 2 && retriedOk.size === unauthorized.size,
      'every refused call retried with the new token',
    );
    // more calls with the refreshed token: still the one refresh
    await admin.getByRole('link', { name: 'Gestione clienti' }).click();
    await admin.getByRole('row', { name: new RegExp(CLIENT_EMAIL) }).waitFor();
    admin.off('response', onResponse);
    expect(refreshes.map((r) => r.status())).toEqual([200]);
    await expectSignedIn(admin, ADMIN.email);
  });

  it('logout in one tab logs out the other', async () => {
    const context = await newContext(world.browser, world.portal.url);
    const first = await context.newPage();
    const second = await context.newPage();
    await second.goto('/');
    await signIn(first, CLIENT_EMAIL, CLIENT_NEW_PASSWORD);
    await expectSignedIn(first, CLIENT_EMAIL);
    await expectSignedIn(second, CLIENT_EMAIL); // adopted from the login broadcast
    await first.getByRole('button', { name: 'Esci' }).click();
    await expectSignedOut(first);
    await expectSignedOut(second);
    await context.close();
  });

  it('has no serious or critical accessibility violation on any screen', () => {
    expect(world.accessibility.size).toBeGreaterThan(0);
    expect(describeViolations(world.accessibility)).toEqual([]);
  });
});
