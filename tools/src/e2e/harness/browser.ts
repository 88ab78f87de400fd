/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser), screenshots of every
 * screen at desktop and mobile width, and an axe-core check of every screen.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumExecutablePath } from '@rna/infra/pdf';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
// Screenshots go to the ignored test-output/ on every run, so `npm test` leaves the tree clean;
// E2E_SCREENSHOTS=docs refreshes the committed set that README shows.
export const SCREENSHOTS_DIR =
  process.env.E2E_SCREENSHOTS === 'docs'
    ? path.join(REPOSITORY_ROOT, 'docs', 'screenshots')
    : path.join(REPOSITORY_ROOT, 'test-output', 'screenshots');
const AXE_SCRIPT = require.resolve('axe-core/axe.min.js');
let axeSource: string | undefined;

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutablePath(),
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}

let browserClock: (() => Date) | null = null;

/** What the pages' consoles said about Content-Security-Policy violations (the world fails on any). */
export const cspViolations: string[] = [];

/**
 * Pins the date every browser context made from now on starts at (read when the context opens; time
 * then runs on): the pages then compute "today" (expiry badges, year lists) on the same day as the
 * pinned server, whatever day the suite runs.
 */
export function pinBrowserClock(clock: () => Date): void {
  browserClock = clock;
}

export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: DESKTOP,
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(10_000); // a missing label fails the step fast, with its name
  if (browserClock) await context.clock.install({ time: browserClock() });
  // The front end must work under the portal's CSP: any blocked script, style, image or connection
  // is reported by Chromium on the console.
  context.on('page', (page) => {
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text()))
        cspViolations.push(`${page.url()}: ${message.text()}`);
    });
  });
  return context;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Serious and critical axe violations of the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // evaluated in the page (this back-end project has no DOM types)
  // Evaluated through the DevTools protocol, not as an inline <script>: the portal's CSP (rightly)
  // refuses inline scripts, and the check must not need a weaker policy than users get.
  if (!(await page.evaluate("typeof window.axe === 'object'")))
    await page.evaluate((axeSource ??= readFileSync(AXE_SCRIPT, 'utf8')));
  const violations = (await page.evaluate(
    "window.axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)",
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.slice(0, 5).map((n) => ({ target: n.target })),
    }));
}

/** Screen name → the serious/critical violations found on it (empty when clean). */
export type AccessibilityReport = Map<string, AxeViolation[]>;

/**
 * Screenshot of the screen at desktop and mobile width (docs/screenshots/<screen>-<width>.png),
 * with an axe check at each width. Leaves the page at desktop width. Animations are settled
 * first so that the pictures do not catch a half-drawn chart.
 */
export async function captureScreen(
  page: Page,
  screen: string,
  report: AccessibilityReport,
  /** what the picture is of, when a phone's screen would not reach it from the top of the page */
  subject?: Locator,
): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  for (const size of [DESKTOP, MOBILE]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400); // layout, media-query listeners and chart redraw
    await subject?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${screen}-${size.width}.png`) });
    const found = await seriousViolations(page);
    report.set(`${screen}@${size.width}`, found);
  }
  await page.setViewportSize(DESKTOP);
  await page.waitForTimeout(200);
}

/**
 * Violations known in the front end and accepted for now, matched exactly (rule and element) so that
 * any other violation still fails the check. None at present.
 */
export const KNOWN_FRONTEND_VIOLATIONS: readonly { id: string; target: string }[] = [];

const isKnown = (v: AxeViolation) =>
  v.nodes.every((node) =>
    KNOWN_FRONTEND_VIOLATIONS.some((known) => known.id === v.id && node.target.join(' ') === known.target),
  );

/** One line per serious/critical violation that is not a known front-end one. */
export function describeViolations(report: AccessibilityReport): string[] {
  const lines: string[] = [];
  for (const [screen, violations] of report)
    for (const v of violations.filter((found) => !isKnown(found)))
      lines.push(
        `${screen}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      );
  return lines;
}
