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
          // Streamed slowly enough that the status line is seen saying so.
          {
            parts: [{ type: 'text', text: `The build passed. ${'All the steps ran. '.repeat(30)}` }],
            chunkSize: 6,
            delayMs: 15,
          },
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
      // Every state the status line goes through, however briefly (a mutation observer in the page).
      await page.addInitScript(() => {
        const states: string[] = [];
        (window as unknown as { __states: string[] }).__states = states;
        new MutationObserver(() => {
          const el = document.querySelector('[data-testid="status"]');
          const state = el ? `${el.getAttribute('data-activity')}|${el.textContent}` : null;
          if (state !== null && states.at(-1) !== state) states.push(state);
        }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      const states = () => page.evaluate(() => (window as unknown as { __states: string[] }).__states);
      await page.goto(host.url);
      await page.getByRole('button', { name: 'Start a session' }).click();
      await page.getByLabel('Message').fill('build it');
      await page.getByLabel('Message').press('Enter');
      const dock = page.getByTestId('approval');
      await expect
        .poll(() => dock.locator('.ca-approval-tool').textContent(), { timeout: 20_000 })
        .toBe('Bash');
      await expect.poll(() => page.getByTestId('status').textContent()).toBe('Waiting for your approval');
      const answeredAt = (await states()).length;
      await dock.getByRole('button', { name: 'Allow once' }).click();
      const card = page.locator('.ca-card[data-card="terminal"]');
      // The command still waits for the gate file: this output can only have arrived live.
      await expect
        .poll(() => card.locator('.ca-terminal-output').textContent(), { timeout: 20_000 })
        .toContain('step two');
      expect(await card.getAttribute('data-status')).toBe('running');
      // The approved command runs: the status line says which, never that it still waits for an approval.
      const status = page.getByTestId('status');
      expect(await status.getAttribute('data-activity')).toBe('running-tool');
      // The Stop button is offered, and the message box kept its width (the button's place is kept when idle).
      const box = page.getByLabel('Message');
      const runningWidth = await box.evaluate((e) => e.getBoundingClientRect().width);
      expect(await page.getByRole('button', { name: 'Stop' }).isEnabled()).toBe(true);
      expect(await status.textContent()).toMatch(/^Running printf '\\033\[32mbuild ok.*…$/);
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
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('Done');
      expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
      expect(await box.evaluate((e) => e.getBoundingClientRect().width)).toBe(runningWidth);
      const after = (await states()).slice(answeredAt).map((s) => s.split('|')[0]);
      expect(after).not.toContain('awaiting-approval');
      // Running the command, then the answer streaming, then done (sending the answer and waiting for the model
      // come between).
      const order = after.filter((a) => a !== 'waiting-model' && a !== 'resuming');
      expect(order.slice(0, 1)).toEqual(['running-tool']);
      expect(order).toContain('writing');
      expect(order.indexOf('writing')).toBeGreaterThan(order.indexOf('running-tool'));
      expect(order.at(-1)).toBe('done');
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
