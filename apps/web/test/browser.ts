import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (never a downloaded browser). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The built SPA (the test task depends on the build). */
export const CLIENT_DIR = fileURLToPath(new URL('../dist/client/', import.meta.url));

/** Where the test run saves screenshots (looked at by a person, kept out of git). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

/** One Chromium with a fresh profile, and what a page did that a test must see. */
export async function launch(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'codeagent-web-chromium-'));
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1280, height: 860 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** What a page did that it should not: dialogs, CSP violations, page errors, requests to other origins. */
export interface PageWatch {
  readonly dialogs: string[];
  readonly violations: string[];
  readonly errors: string[];
  readonly foreignRequests: string[];
}

/** Records dialogs (dismissed), CSP violations, uncaught errors and requests that leave the server's origin. */
export async function watch(page: Page, origin: string): Promise<PageWatch> {
  const w: PageWatch = { dialogs: [], violations: [], errors: [], foreignRequests: [] };
  page.on('dialog', (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => w.errors.push(e.message));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'))
      w.foreignRequests.push(url);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && m.text().includes('Content Security Policy')) w.violations.push(m.text());
  });
  await page.exposeFunction('__cspViolation', (text: string) => w.violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation: (t: string) => void }).__cspViolation(
        `${e.violatedDirective} ${e.blockedURI}`,
      );
    });
  });
  return w;
}
