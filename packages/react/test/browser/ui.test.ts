import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, launch, mount, SCREENSHOTS, serve, watchedPage } from './harness.ts';
import { XSS_PAYLOADS } from './xss-corpus.ts';

/** The rendered text of a locator (Playwright's `innerText`, which keeps line breaks between rows). */
// biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node; the layout text is wanted
const textOf = (locator: Locator): Promise<string> => locator.innerText();

let outDir = '';
let server: Awaited<ReturnType<typeof serve>>;
let browser: Awaited<ReturnType<typeof launch>>;
let context: BrowserContext;

beforeAll(async () => {
  outDir = await buildFixture();
  server = await serve(outDir);
  browser = await launch();
  context = browser.context;
  await mkdir(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir !== '') await rm(outDir, { recursive: true, force: true });
});

const SHOTS = [
  'kind-text',
  'kind-text-plain',
  'kind-table',
  'kind-image',
  'kind-code',
  'kind-diff',
  'kind-error',
  'kind-fallback',
  'card-generic',
  'card-generic-raw',
  'card-terminal-running',
  'card-terminal-failed',
  'card-terminal-ok',
  'card-diff-call',
  'card-diff-applied',
  'card-diff-new-file',
  'card-denied',
  'approval',
  'approval-diff',
  'markdown',
];

describe('gallery in Chromium under a strict CSP', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`renders every kind and card (${theme}) with no CSP violation, error or foreign request`, async () => {
      const watch = await watchedPage(context);
      const { page } = watch;
      await page.goto(`${server.url}?csp=strict`);
      await mount(page, 'gallery', theme);
      // Shiki arrives lazily: first the plain text, then the highlighted tokens.
      const code = page.locator('[data-shot="kind-code"] .ca-code');
      await expect.poll(() => code.getAttribute('data-highlighted'), { timeout: 20_000 }).toBe('true');
      expect(await code.locator('.ca-code-token').count()).toBeGreaterThan(10);
      const color = await code
        .locator('.ca-code-token', { hasText: 'import' })
        .first()
        .evaluate((el) => getComputedStyle(el).color);
      expect(color).not.toBe(await page.evaluate(() => getComputedStyle(document.body).color));
      for (const name of SHOTS) {
        const shot = page.locator(`[data-shot="${name}"]`);
        await expect.poll(() => shot.count()).toBe(1);
        await shot.screenshot({ path: join(SCREENSHOTS, `${name}-${theme}.png`) });
      }
      expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
      expect(watch.offLoopback).toEqual([]);
      expect(watch.pageErrors).toEqual([]);
      expect(watch.dialogs).toEqual([]);
      await page.close();
    }, 60_000);
  }

  it('follows prefers-color-scheme unless data-theme overrides it', async () => {
    const { page } = await watchedPage(context);
    await page.goto(server.url);
    await mount(page, 'gallery', 'light');
    const card = page.locator('[data-shot="card-terminal-ok"] .ca-card');
    const background = () => card.evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.evaluate(() => document.documentElement.removeAttribute('data-theme'));
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(13, 17, 23)');
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    expect(await background()).toBe('rgb(13, 17, 23)');
    await page.close();
  }, 60_000);

  it('shows the plain code text before the highlighter arrives', async () => {
    const watch = await watchedPage(context);
    const { page } = watch;
    // Hold the lazy chunks back to observe the first paint.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/(highlight|core|engine|github|typescript)[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(server.url);
    await mount(page, 'gallery', 'light');
    const code = page.locator('[data-shot="kind-code"] .ca-code');
    expect(await code.getAttribute('data-highlighted')).toBe('false');
    expect(await textOf(code.locator('code'))).toContain('export async function greet(name: string)');
    release();
    await expect.poll(() => code.getAttribute('data-highlighted'), { timeout: 20_000 }).toBe('true');
    expect(await textOf(code.locator('code'))).toContain('export async function greet(name: string)');
    await page.close();
  }, 60_000);

  it('sorts a table, switches a diff to split, opens collapsed details and records an approval', async () => {
    const { page } = await watchedPage(context);
    await page.goto(server.url);
    await mount(page, 'gallery', 'light');
    const table = page.locator('[data-shot="kind-table"]');
    const firstCell = () =>
      textOf(table.locator('tbody tr:not(.ca-table-spacer)').first().locator('td').first());
    expect(await firstCell()).toBe('artifact-schema');
    await table.getByRole('button', { name: 'size' }).click();
    await table.getByRole('button', { name: /size/ }).click(); // descending
    expect(await firstCell()).toBe('agent-core');
    expect(await table.locator('th').nth(1).getAttribute('aria-sort')).toBe('descending');

    const diff = page.locator('[data-shot="kind-diff"] .ca-diff');
    expect(await diff.getAttribute('data-layout')).toBe('unified');
    await diff.getByRole('button', { name: 'Split' }).click();
    expect(await diff.getAttribute('data-layout')).toBe('split');
    // Real line numbers: line 12 changed in a 30-line file.
    expect(await textOf(diff.locator('tr', { hasText: '12 * 2' }).first().locator('td').nth(2))).toBe('12');

    const applied = page.locator('[data-shot="card-diff-applied"]');
    const appliedText = await textOf(applied);
    expect(appliedText).toContain('@@ -9,7 +9,7 @@');
    expect(appliedText).toContain('@@ -23,6 +23,7 @@');
    // Both applied hunks of the file are one diff with one header.
    expect(await applied.locator('.ca-diff').count()).toBe(1);

    const detail = page.locator('[data-shot="kind-error"] details');
    expect(await detail.getAttribute('open')).toBeNull();
    expect(await page.locator('[data-shot="kind-error"] pre').isVisible()).toBe(false);
    await detail.locator('summary').click();
    expect(await page.locator('[data-shot="kind-error"] pre').isVisible()).toBe(true);

    const approval = page.locator('[data-shot="approval"]');
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await approval.getByRole('button', { name: 'Deny' }).click({ force: true });
    expect(await page.evaluate(() => window.__decisions)).toEqual(['allow_once']);
    expect(await approval.getByRole('button', { name: 'Deny' }).isDisabled()).toBe(true);
    await page.close();
  }, 60_000);

  it('virtualises a 5000-row table and still reaches the last row', async () => {
    const { page } = await watchedPage(context);
    await page.goto(`${server.url}?csp=strict`);
    await mount(page, 'big-table', 'light');
    const table = page.locator('.ca-table');
    expect(await table.getAttribute('data-virtual')).toBe('true');
    const rows = () => table.locator('tbody tr:not(.ca-table-spacer)').count();
    expect(await rows()).toBeLessThan(80);
    await table.locator('.ca-table-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(() => table.locator('tbody tr', { hasText: 'row 4999' }).count()).toBe(1);
    expect(await rows()).toBeLessThan(80);
    // Sorting works on all rows, not only the rendered ones.
    await table.getByRole('button', { name: 'score' }).click();
    await table.getByRole('button', { name: /score/ }).click();
    await table.locator('.ca-table-scroll').evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect
      .poll(() => textOf(table.locator('tbody tr:not(.ca-table-spacer)').first().locator('td').nth(2)))
      .toBe('999');
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    await page.close();
  }, 60_000);

  it('streams terminal output through pending, running and done', async () => {
    const { page } = await watchedPage(context);
    await page.goto(server.url);
    await mount(page, 'lifecycle', 'light');
    const card = page.locator('[data-shot="lifecycle"] .ca-card');
    const step = () => page.evaluate(() => window.__step?.());
    expect(await card.getAttribute('data-status')).toBe('pending');
    expect(await card.locator('.ca-terminal-output').count()).toBe(0);
    await step();
    await expect.poll(() => card.getAttribute('data-status')).toBe('running');
    const output = card.locator('.ca-terminal-output');
    for (const expected of ['vite v8 building...', 'transforming (12)', '✓ 42 modules']) {
      await step();
      await expect
        .poll(async () => (await output.count()) > 0 && (await textOf(output)).includes(expected))
        .toBe(true);
    }
    expect(await textOf(output.locator('.ca-sgr-fg-6').first())).toBe('vite');
    expect(await textOf(output)).not.toContain('pwned');
    await step();
    await expect.poll(() => card.getAttribute('data-status')).toBe('done');
    expect(await textOf(card.locator('.ca-exit'))).toBe('exit 0');
    await card.screenshot({ path: join(SCREENSHOTS, 'card-terminal-lifecycle-done-light.png') });
    await page.close();
  }, 60_000);

  it('contains a renderer that throws and shows the value instead', async () => {
    const watch = await watchedPage(context);
    const { page } = watch;
    await page.goto(server.url);
    await mount(page, 'throwing', 'light');
    const shot = page.locator('[data-shot="throwing"]');
    await expect.poll(() => textOf(shot.locator('.ca-value'))).toBe('the portable value survives');
    expect(await shot.locator('.ca-table').count()).toBe(1);
    expect(await page.evaluate(() => window.__renderErrors)).toEqual(['Error: renderer bug']);
    await page.close();
  }, 60_000);
});

describe('XSS corpus in Chromium', () => {
  it(`has at least 150 payloads (${XSS_PAYLOADS.length})`, () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(XSS_PAYLOADS.map((p) => p.payload)).size).toBe(XSS_PAYLOADS.length);
  });

  it('runs no script, opens no dialog and sends no request for any payload in any channel', async () => {
    const watch = await watchedPage(context);
    const { page } = watch;
    // No CSP here: a payload that got through must be able to act, so that the checks below would see it.
    await page.goto(server.url);
    await mount(page, 'corpus', 'light');
    await expect.poll(() => page.locator('[data-corpus-size]').count()).toBe(1);
    // Give lazy highlighting, image decoding and any injected timers a moment to act.
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.ca-code[data-highlighted="false"]:not([data-lang="text"])').length === 0,
      null,
      { timeout: 60_000 },
    );
    await page.waitForTimeout(300);
    // The payloads reached the page, as text.
    const script = page.locator('.corpus-entry[data-id="script-1"]');
    expect(await textOf(script)).toContain('<script>window.__xss=1</script>');
    expect(await page.locator('.corpus-entry').count()).toBe(XSS_PAYLOADS.length);
    // Hover and focus over the whole corpus, open every details element.
    await page.evaluate(() => {
      for (const el of document.querySelectorAll('#root *')) {
        el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
        el.dispatchEvent(new FocusEvent('focus'));
      }
      for (const d of document.querySelectorAll('details')) d.open = true;
    });
    await page.waitForTimeout(200);
    const dom = await page.evaluate(() => {
      const root = document.getElementById('root') as HTMLElement;
      const all = [...root.querySelectorAll('*')];
      return {
        handlers: all.flatMap((el) =>
          [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName} ${a.name}`),
        ),
        styles: all
          .filter(
            (el) =>
              el.hasAttribute('style') &&
              !el.classList.contains('ca-code-token') &&
              // A diff's number column sized to its digits: the one style the kit writes itself.
              !(
                el.matches('col.ca-diff-col-no') &&
                /^width: (6px|calc\(\d{1,2}ch \+ 12px\));$/.test(el.getAttribute('style') ?? '')
              ),
          )
          .map((el) => el.tagName),
        dangerous: all
          .filter(
            (el) =>
              /^(script|iframe|object|embed|svg|math|style|link|meta|base|form|input|textarea|video|audio|source|picture|portal|template|noscript|frame|frameset)$/i.test(
                el.tagName,
              ) &&
              // The kind icons: a constant SVG of bare paths in the card header.
              !(
                el.tagName.toLowerCase() === 'svg' &&
                el.parentElement?.matches('.ca-card-header > span.ca-kind-icon') === true &&
                [...el.children].every((c) => c.tagName.toLowerCase() === 'path' && c.attributes.length === 1)
              ),
          )
          .map((el) => el.tagName),
        hrefs: [...root.querySelectorAll('a[href]')]
          .map((a) => a.getAttribute('href') ?? '')
          .filter((h) => !/^(https?:|mailto:|[^:]*$)/i.test(h)),
        imgs: [...root.querySelectorAll('img')]
          .map((i) => i.getAttribute('src') ?? '')
          .filter((s) => !/^data:image\/(png|jpeg|gif|webp);base64,/.test(s)),
        srcsets: all.filter(
          (el) => el.hasAttribute('srcset') || el.hasAttribute('background') || el.hasAttribute('poster'),
        ).length,
        scripts: document.querySelectorAll('script').length,
      };
    });
    expect(await page.evaluate(() => window.__xss)).toBeUndefined();
    expect(watch.dialogs).toEqual([]);
    expect(watch.offLoopback).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(dom.handlers).toEqual([]);
    expect(dom.styles).toEqual([]);
    expect(dom.dangerous).toEqual([]);
    expect(dom.hrefs).toEqual([]);
    expect(dom.imgs).toEqual([]);
    expect(dom.srcsets).toBe(0);
    // Still usable: the page responds, a button works and an approval records its decision.
    const firstApproval = page.locator('.ca-approval').first();
    await firstApproval.getByRole('button', { name: 'Deny' }).click();
    expect(await page.evaluate(() => window.__decisions)).toEqual(['deny']);
    const diff = page.locator('.ca-diff').first();
    await diff.getByRole('button', { name: 'Split' }).click();
    expect(await diff.getAttribute('data-layout')).toBe('split');
    await page.close();
  }, 120_000);

  for (const theme of ['light', 'dark'] as const) {
    it(`screenshots corpus entries one by one (${theme})`, async () => {
      const watch = await watchedPage(context);
      const { page } = watch;
      await page.goto(server.url);
      for (const id of ['bidi-1', 'terminal-1', 'markdown-19', 'handler-1', 'css-6']) {
        await mount(page, `corpus:${id}`, theme);
        await page
          .locator(`.corpus-entry[data-id="${id}"]`)
          .screenshot({ path: join(SCREENSHOTS, `corpus-${id}-${theme}.png`) });
      }
      expect(await page.evaluate(() => window.__xss)).toBeUndefined();
      expect(watch.offLoopback).toEqual([]);
      expect(watch.dialogs).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
