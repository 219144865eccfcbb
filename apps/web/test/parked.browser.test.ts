import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { serverEnv, startOpenAIServer } from '../../cli/test/chat-server.ts';
import { launch, SCREENSHOT_DIR, watch } from './browser.ts';
import { startInstance } from './instances.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function waitStatus(page: Page, status: string) {
  await expect
    .poll(() => page.getByTestId('status').getAttribute('data-status'), { timeout: 30_000 })
    .toBe(status);
}

describe('a turn parked on an approval, the server killed, in Chromium', () => {
  it('kill -9 while the approval waits, start the server again, reload: approve, the card is done, the model finishes', async () => {
    const work = await mkdtemp(join(tmpdir(), 'codeagent-web-parked-'));
    const server = await startOpenAIServer({
      replies: (request) => {
        const tool = (request.body.messages ?? []).find((m) => m.role === 'tool');
        if (!tool)
          return { tools: [{ name: 'Bash', args: { command: 'echo ran >> ran.log; echo from-the-tool' } }] };
        return { text: 'The command ran after the restart and printed from-the-tool.' };
      },
    });
    cleanups.push(async () => {
      await server.close();
      await rm(work, { recursive: true, force: true });
    });
    const env = { ...serverEnv(server, work), CODEAGENT_HOME: join(work, '.home') };
    const first = await startInstance(env, work);
    cleanups.push(() => first.stop());
    const { context, close } = await launch();
    cleanups.push(close);

    const page = await context.newPage();
    await page.goto(first.url);
    await page.getByRole('button', { name: 'Start a session' }).click();
    await page.getByLabel('Message').fill('append to ran.log');
    await page.getByLabel('Message').press('Enter');
    await waitStatus(page, 'awaiting-approval');
    const id = /\/s\/([A-Za-z0-9_-]+)$/.exec(page.url())?.[1] ?? '';
    expect(id).not.toBe('');
    // Killed once the park is stored (the step and the approval).
    const db = join(work, '.home', 'web', 'sessions.db');
    await expect
      .poll(() => {
        const d = new Database(db, { readonly: true, fileMustExist: true });
        try {
          const steps = d.prepare('SELECT data FROM codeagent_steps').all() as Array<{ data: string }>;
          return steps.some((s) => s.data.includes('"parked"'));
        } finally {
          d.close();
        }
      })
      .toBe(true);
    first.child.kill('SIGKILL');
    await new Promise((r) => (first.child.exitCode !== null ? r(null) : first.child.once('exit', r)));

    // The server starts again (a new token in the URL it prints); the page opens the session there.
    const again = await startInstance(env, work);
    cleanups.push(() => again.stop());
    const seen = await watch(page, again.origin);
    await page.goto(again.url);
    await page.goto(`${again.origin}/s/${id}`);
    await waitStatus(page, 'awaiting-approval');
    const dock = page.getByTestId('approval');
    await expect
      .poll(() => dock.locator('.ca-approval-tool').textContent(), { timeout: 20_000 })
      .toBe('Bash');
    expect(await page.getByTestId('transcript').textContent()).not.toContain('interrupted');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'parked-after-restart.png') });
    expect(await readFile(join(work, 'ran.log'), 'utf8').catch(() => '')).toBe('');

    await dock.getByRole('button', { name: 'Allow once' }).click();
    await expect
      .poll(() => page.getByTestId('transcript').textContent(), { timeout: 30_000 })
      .toContain('The command ran after the restart');
    await waitStatus(page, 'ready');
    const card = page.locator('[data-row="tool"][data-tool="Bash"]');
    expect(await card.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual([
      'output-available',
    ]);
    expect(await card.textContent()).toContain('from-the-tool');
    expect(await page.locator('[data-row="footer"]').last().textContent()).toContain('completed');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'parked-resumed-after-restart.png') });
    expect(await readFile(join(work, 'ran.log'), 'utf8')).toBe('ran\n');

    // A reload shows the finished turn from storage, the command run once.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('transcript').textContent(), { timeout: 20_000 })
      .toContain('The command ran after the restart');
    expect(await page.getByTestId('approval').count()).toBe(0);
    expect(await readFile(join(work, 'ran.log'), 'utf8')).toBe('ran\n');
    expect(seen.errors).toEqual([]);
    expect(seen.violations).toEqual([]);
    expect(seen.foreignRequests).toEqual([]);
  }, 120_000);
});
