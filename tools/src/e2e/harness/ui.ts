/** What a user does on the portal's screens, by the labels of the Italian catalogue. */
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

export async function signIn(page: Page, email: string, password: string, remember = false): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (remember) await page.getByLabel('Ricordami').check();
  await page.getByLabel('Dichiaro di aver letto il documento di esclusione di responsabilità').check();
  await page.getByRole('button', { name: 'Accedi' }).click();
}

/** The signed-in navigation shows the user's email (desktop width). */
export async function expectSignedIn(page: Page, email: string): Promise<void> {
  await page.locator('.nav-bar__email', { hasText: email }).waitFor();
}

export async function expectSignedOut(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Accedi' }).waitFor();
}

/** A toast or inline alert with this text appears. */
export async function expectMessage(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor();
}

export function dialog(page: Page, title: string | RegExp): Locator {
  return page.getByRole('dialog', { name: title });
}

/** Text content of a stat card by its label. */
export async function statValue(page: Page, label: string): Promise<string> {
  const value = page.getByRole('region', { name: label, exact: true }).locator('.stat-card__value');
  return ((await value.textContent()) ?? '').trim();
}

export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Clicks the button that downloads a file and saves the file in `dir` under its suggested name. */
export async function downloadByButton(page: Page, button: string, dir: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  const target = path.join(dir, file.suggestedFilename());
  await file.saveAs(target);
  return target;
}

/** What a paste from a spreadsheet column does: a paste event carrying the copied text. */
export async function pasteInto(input: Locator, text: string): Promise<void> {
  await input.evaluate((element, pasted) => {
    // runs in the page (this workspace compiles without the DOM types)
    const dom = globalThis as unknown as {
      DataTransfer: new () => { setData(type: string, value: string): void };
      ClipboardEvent: new (type: string, init: object) => unknown;
    };
    const data = new dom.DataTransfer();
    data.setData('text/plain', pasted);
    const event = new dom.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    (element as unknown as { dispatchEvent(event: unknown): boolean }).dispatchEvent(event);
  }, text);
}
