import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@codeagent/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../src/server/server.ts';
import { CLIENT_DIR, launch, SCREENSHOT_DIR, watch } from './browser.ts';

let host: WebHost;
let cwd: string;
let gate: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'codeagent-web-live-'));
  gate = join(cwd, 'go');
  // Prints two coloured lines, then waits for the test before it ends: what the page shows first is live.
  const command = `printf '\\033[32mbuild ok\\033[0m\\n\\033]0;title\\007step two\\n'; while [ ! -f ${gate} ]; do sleep 0.05; done; echo finished`;
  host = await startWebHost({
    config: {
      cwd,
      model: () => ({
        model: scriptedModel([
          { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command, description: 'Build' } }] },
          { parts: [{ type: 'text', text: 'The build passed.' }] },
        ]),
        contextWindow: 100_000,
        maxOutputTokens: 4_000,
      }),
      modelLabel: 'live output (scripted)',
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

describe('Bash output streams into the terminal card (Chromium)', () => {
  it('shows the output before the command ends, SGR kept and other escapes removed, then the result', async () => {
    const { context, close } = await launch();
    try {
      const page = await context.newPage();
      const seen = await watch(page, host.origin);
      await page.goto(host.url);
      await page.getByRole('button', { name: 'Start a session' }).click();
      await page.getByLabel('Message').fill('build it');
      await page.getByLabel('Message').press('Enter');
      const dock = page.getByTestId('approval');
      await expect
        .poll(() => dock.locator('.ca-approval-tool').textContent(), { timeout: 20_000 })
        .toBe('Bash');
      await dock.getByRole('button', { name: 'Allow once' }).click();
      const card = page.locator('.ca-card[data-card="terminal"]');
      // The command still waits for the gate file: this output can only have arrived live.
      await expect
        .poll(() => card.locator('.ca-terminal-output').textContent(), { timeout: 20_000 })
        .toContain('step two');
      expect(await card.getAttribute('data-status')).toBe('running');
      const output = card.locator('.ca-terminal-output');
      expect(await output.textContent()).toBe('build ok\nstep two');
      // The SGR colour became a class; the OSC title left nothing behind.
      expect(await output.locator('span[class]').first().textContent()).toBe('build ok');
      expect(await output.innerHTML()).not.toContain('title');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'live-terminal-running.png') });
      writeFileSync(gate, '');
      await expect
        .poll(() => page.getByTestId('transcript').textContent(), { timeout: 20_000 })
        .toContain('The build passed.');
      await expect.poll(() => card.getAttribute('data-status'), { timeout: 10_000 }).toBe('done');
      expect(await card.locator('.ca-terminal-output').first().textContent()).toContain('finished');
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'live-terminal-done.png') });
      expect(seen.errors).toEqual([]);
      expect(seen.violations).toEqual([]);
      expect(seen.dialogs).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
