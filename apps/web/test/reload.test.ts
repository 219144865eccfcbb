import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@codeagent/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../src/server/server.ts';
import { CLIENT_DIR, launch, watch } from './browser.ts';

const WORDS = 400;
const text = Array.from({ length: WORDS }, (_, i) => `word${i}`).join(' ');

let host: WebHost;
let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'codeagent-web-reload-'));
  host = await startWebHost({
    config: {
      cwd,
      // About 3 seconds of streaming: long enough to reload in the middle.
      model: () => ({
        model: scriptedModel([{ parts: [{ type: 'text', text }] }], { chunkSize: 8, delayMs: 8 }),
        contextWindow: 100_000,
        maxOutputTokens: 4_000,
      }),
      modelLabel: 'slow text (scripted)',
      demo: false,
      note: null,
      deny: [],
    },
    database: join(cwd, '.sessions.db'),
    clientDir: CLIENT_DIR,
  });
}, 30_000);
afterAll(async () => {
  await host?.close();
  await rm(cwd, { recursive: true, force: true });
});

describe('a reload while text streams', () => {
  it('keeps the turn running on the server and the page picks it up, each word once', async () => {
    const { context, close } = await launch();
    try {
      const page = await context.newPage();
      const seen = await watch(page, host.origin);
      await page.goto(host.url);
      await page.getByRole('button', { name: 'Start a session' }).click();
      await page.getByLabel('Message').fill('talk slowly');
      await page.getByLabel('Message').press('Enter');
      await expect
        .poll(() => page.getByTestId('transcript').textContent(), { timeout: 20_000 })
        .toContain('word20');
      expect(await page.getByTestId('transcript').textContent()).not.toContain(`word${WORDS - 1}`);
      await page.reload();
      await expect
        .poll(() => page.getByTestId('transcript').textContent(), { timeout: 30_000 })
        .toContain(`word${WORDS - 1}`);
      await expect
        .poll(() => page.locator('[data-row="footer"]').textContent(), { timeout: 10_000 })
        .toContain('completed');
      const body = (await page.getByTestId('transcript').textContent()) ?? '';
      expect(body.split('word200 ').length - 1).toBe(1);
      expect(await page.locator('[data-row="footer"]').count()).toBe(1);
      // And the stored copy is the whole answer too.
      await page.reload();
      await expect
        .poll(() => page.getByTestId('transcript').textContent(), { timeout: 20_000 })
        .toContain(`word${WORDS - 1}`);
      expect(seen.errors).toEqual([]);
      expect(seen.violations).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);
});
