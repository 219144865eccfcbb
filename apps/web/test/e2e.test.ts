import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebHost } from '../src/server/server.ts';
import { CLIENT_DIR, launch, SCREENSHOT_DIR, watch } from './browser.ts';
import { startTestHost } from './helpers.ts';

let host: WebHost;
let stopHost: () => Promise<void>;
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
let cwd: string;

beforeAll(async () => {
  const started = await startTestHost({ clientDir: CLIENT_DIR });
  host = started.host;
  stopHost = started.dispose;
  cwd = (await (await fetch(`${host.origin}/api/info`, { headers: auth() })).json()).cwd;
  ({ context, close: closeBrowser } = await launch());
}, 60_000);
afterAll(async () => {
  await closeBrowser?.();
  await stopHost?.();
});

const auth = () => ({ Authorization: `Bearer ${host.token}` });

async function approve(page: Page, tool: string, button: 'Allow once' | 'Allow always' | 'Deny') {
  const dock = page.getByTestId('approval');
  await expect.poll(() => dock.locator('.ca-approval-tool').textContent(), { timeout: 20_000 }).toBe(tool);
  await dock.getByRole('button', { name: button }).click();
}

async function waitStatus(page: Page, status: string) {
  await expect
    .poll(() => page.getByTestId('status').getAttribute('data-status'), { timeout: 30_000 })
    .toBe(status);
}

describe('the web host in Chromium on the demo model', () => {
  it('runs the demo session end to end, survives a reload, aborts, and keeps a second session', async () => {
    const page = await context.newPage();
    const seen = await watch(page, host.origin);
    // Every tool the approval dock ever shows, however briefly (a mutation observer in the page).
    await page.addInitScript(() => {
      const docked: string[] = [];
      (window as unknown as { __docked: string[] }).__docked = docked;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="approval"] .ca-approval-tool')) {
          const name = el.textContent ?? '';
          if (docked.at(-1) !== name) docked.push(name);
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const docked = () => page.evaluate(() => (window as unknown as { __docked: string[] }).__docked);
    await page.goto(host.url);
    // The token moved into the cookie: the address bar no longer shows it.
    expect(page.url()).toBe(`${host.origin}/`);
    await expect.poll(() => page.getByTestId('demo-note').textContent()).toContain('scripted demo model');

    await page.getByRole('button', { name: 'Start a session' }).click();
    await page.getByLabel('Message').fill('Give me a tour of this workspace');
    await page.getByLabel('Message').press('Enter');

    // Edit and Write wait together; the dialog shows the edit's diff card.
    await waitStatus(page, 'awaiting-approval');
    const dock = page.getByTestId('approval');
    await expect.poll(() => dock.locator('[data-card="diff"]').count()).toBe(1);
    expect(await dock.textContent()).toContain('Hello, ');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'approval-light.png') });
    await approve(page, 'Edit', 'Allow once');
    await approve(page, 'Write', 'Deny');
    // Then whatever asks: Bash "always" (the gate scopes a grant to the command), anything else once.
    const answered: string[] = [];
    const fresh = dock.locator('button:enabled', { hasText: 'Deny' });
    for (let i = 0; i < 10; i++) {
      // Either a new prompt (its buttons enabled) or the end of the turn.
      await expect
        .poll(
          async () =>
            (await fresh.count()) > 0 ||
            (await page.getByTestId('status').getAttribute('data-status')) === 'ready',
          { timeout: 30_000 },
        )
        .toBe(true);
      if ((await fresh.count()) === 0) break;
      const tool = (await dock.locator('.ca-approval-tool').textContent()) ?? '';
      answered.push(tool);
      await dock.getByRole('button', { name: tool === 'Bash' ? 'Allow always' : 'Allow once' }).click();
    }
    expect(answered).toContain('Bash');
    expect(answered).toContain('job_kill');
    await waitStatus(page, 'ready');
    await expect.poll(() => page.locator('[data-row="footer"]').last().textContent()).toContain('completed');

    // Streamed text, reasoning, every card and every artifact kind of the tour.
    const transcript = page.getByTestId('transcript');
    expect(await transcript.textContent()).toContain('Summary of the tour');
    expect(await page.locator('[data-row="reasoning"]').count()).toBeGreaterThan(0);
    const cards = await page
      .locator('[data-row="tool"] [data-card]')
      .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-card')))]);
    expect(cards.sort()).toEqual(['diff', 'generic', 'terminal']);
    const kinds = await page
      .locator('.ca-result[data-kind]')
      .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-kind')))]);
    for (const kind of ['text', 'image', 'code', 'table', 'error']) expect(kinds, kind).toContain(kind);
    // The Edit's diff artifact is drawn once, by its diff card (applied hunks with the file's real line numbers);
    // a terminal card's code artifact would repeat its command and output, so it is not drawn again either.
    const edit = page.locator('[data-row="tool"][data-tool="Edit"]');
    expect(await edit.locator('.ca-diff').count()).toBe(1);
    expect(await edit.locator('.ca-result[data-kind="diff"]').count()).toBe(0);
    expect(await edit.locator('.ca-diff-hunk').first().textContent()).toMatch(/^@@ -1,4 \+1,4 @@$/);
    expect(await page.locator('[data-row="tool"]:has(.ca-exit)').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-row="tool"]:has(.ca-exit) .ca-result[data-kind="code"]').count()).toBe(
      0,
    );
    expect(await page.locator('img.ca-image').count()).toBeGreaterThan(0);
    // A background command's card says which job started; its code artifact (the command, no output yet) would only
    // repeat the card's title, so it is not drawn.
    const background = page.locator('[data-row="tool"][data-tool="Bash"]:has([data-card="generic"])');
    expect(await background.count()).toBeGreaterThan(0);
    expect(await background.first().textContent()).toContain('Started background job');
    expect(await background.locator('.ca-result[data-kind="code"]').count()).toBe(0);
    // The todo list is drawn once (its table), not as the call's text and again as the table.
    const todos = page.locator('[data-row="tool"][data-tool="TodoWrite"]');
    expect(await todos.locator('.ca-result[data-kind="table"]').count()).toBe(1);
    expect(await todos.locator('.ca-card-content').textContent()).toMatch(
      /^\d+ items: \d+ completed, 1 in progress/,
    );
    // Outside the collapsed Input section (the exact input), the list shows once: in the table.
    const shown = await todos
      .locator('.ca-card-body > :not(.ca-raw-input)')
      .evaluateAll((els) => els.map((e) => e.textContent ?? '').join('\n'));
    expect(shown.split('Add a farewell helper').length - 1).toBe(1);
    const state = (tool: string) =>
      page
        .locator(`[data-row="tool"][data-tool="${tool}"]`)
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(await state('Edit')).toEqual(['output-available']);
    expect(await state('Write')).toEqual(['output-denied']);
    expect(await readFile(join(cwd, 'src/greet.ts'), 'utf8')).toContain('`Hello, ');
    await expect(stat(join(cwd, 'src/farewell.ts'))).rejects.toThrow();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'session-light.png') });
    await page.getByRole('button', { name: 'Switch light and dark theme' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'session-dark.png') });

    // A reload re-renders the whole history from storage.
    const before = await page.locator('[data-row]').count();
    const firstUrl = page.url();
    await page.reload();
    await expect.poll(() => page.locator('[data-row]').count(), { timeout: 20_000 }).toBe(before);
    expect(await state('Write')).toEqual(['output-denied']);
    expect(await page.locator('.ca-result[data-kind="image"]').count()).toBeGreaterThan(0);
    // Code is highlighted by the worker (the page itself never runs shiki).
    await expect
      .poll(() => page.locator('.ca-code[data-highlighted="true"]').count(), { timeout: 20_000 })
      .toBeGreaterThan(0);

    // A second session: it waits at the first approval; a reload still shows the waiting approval; Stop ends it.
    await page.getByRole('button', { name: 'New session' }).click();
    await expect.poll(() => page.url()).not.toBe(firstUrl);
    await page.getByLabel('Message').fill('Another tour');
    const dockedBefore = (await docked()).length;
    await page.getByRole('button', { name: 'Send' }).click();
    await waitStatus(page, 'awaiting-approval');
    // The first session already replaced greet()'s body, so this Edit cannot apply: its precheck fails it before
    // anyone is asked (an error, not a denial), and it never shows in the dock, not even for a moment.
    await expect.poll(() => state('Edit')).toEqual(['output-error']);
    expect((await docked()).slice(dockedBefore)).toEqual(['Write']);
    await page.reload();
    await waitStatus(page, 'awaiting-approval');
    await expect
      .poll(() => page.getByTestId('approval').locator('.ca-approval-tool').textContent())
      .toBe('Write');
    expect(await docked()).toEqual(['Write']);
    await page.getByRole('button', { name: 'Stop' }).click();
    await waitStatus(page, 'ready');
    // The Write still waiting is denied by the Stop.
    await expect.poll(() => state('Edit')).toEqual(['output-error']);
    await expect.poll(() => state('Write')).toEqual(['output-denied']);
    expect(await page.locator('[data-row="footer"]').last().textContent()).toContain('interrupted');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'aborted-dark.png') });

    // Both sessions are listed; the first opens with its history.
    expect(await page.locator('.session').count()).toBe(2);
    await page.locator('.session-open', { hasText: 'Give me a tour' }).click();
    await expect.poll(() => page.locator('[data-row]').count(), { timeout: 20_000 }).toBe(before);

    // The permission mode switch applies to the session (and is stored).
    await page.getByLabel('Permission mode').selectOption('accept_edits');
    const firstId = new URL(page.url()).pathname.split('/').pop() as string;
    await expect
      .poll(
        async () =>
          (await (await fetch(`${host.origin}/api/sessions/${firstId}`, { headers: auth() })).json()).mode,
      )
      .toBe('accept_edits');

    // Rename and delete from the list.
    const second = page.locator('.session', { hasText: 'Another tour' });
    await second.hover();
    await second.getByRole('button', { name: /^Rename/ }).click();
    await page.getByLabel('Session title').fill('Aborted tour');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.session-open', { hasText: 'Aborted tour' }).count()).toBe(1);
    const renamed = page.locator('.session', { hasText: 'Aborted tour' });
    await renamed.hover();
    await renamed.getByRole('button', { name: /^Delete/ }).click();
    await expect.poll(() => page.locator('.session').count()).toBe(1);

    expect(seen.dialogs).toEqual([]);
    expect(seen.violations).toEqual([]);
    expect(seen.errors).toEqual([]);
    expect(seen.foreignRequests).toEqual([]);
    await page.close();
  }, 180_000);
});
