import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { serverEnv, startOpenAIServer } from '../../cli/test/chat-server.ts';
import { launch, SCREENSHOT_DIR, watch } from './browser.ts';
import { freshDatabase, startInstance, untilStored } from './instances.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function waitStatus(page: Page, status: string) {
  await expect
    .poll(() => page.getByTestId('status').getAttribute('data-status'), { timeout: 30_000 })
    .toBe(status);
}

describe('two web host instances on one PostgreSQL database, in Chromium', () => {
  it('an approval requested on A is granted from a page served by B, and the session goes on on B', async () => {
    const work = await mkdtemp(join(tmpdir(), 'codeagent-web-multi-'));
    const server = await startOpenAIServer({
      replies: (request) => {
        const messages = request.body.messages ?? [];
        const last = JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
        if (last.includes('write new.txt')) {
          if (!messages.some((m) => m.role === 'tool'))
            return { tools: [{ name: 'Write', args: { file_path: 'new.txt', content: 'written on A\n' } }] };
          return { text: 'The file is written.' };
        }
        return { text: `Continued on B with ${messages.length} messages.` };
      },
    });
    cleanups.push(async () => {
      await server.close();
      await rm(work, { recursive: true, force: true });
    });
    const env = {
      ...serverEnv(server, work),
      CODEAGENT_DATABASE_URL: await freshDatabase(),
      CODEAGENT_HOME: join(work, '.home'),
    };
    const a = await startInstance(env, work);
    cleanups.push(() => a.stop());
    const b = await startInstance(env, work);
    cleanups.push(() => b.stop());
    const { context, close } = await launch();
    cleanups.push(close);

    const pageA = await context.newPage();
    const seenA = await watch(pageA, a.origin);
    await pageA.goto(a.url);
    await pageA.getByRole('button', { name: 'Start a session' }).click();
    await pageA.getByLabel('Message').fill('write new.txt');
    await pageA.getByLabel('Message').press('Enter');
    await waitStatus(pageA, 'awaiting-approval');
    await expect
      .poll(() => pageA.getByTestId('approval').locator('.ca-approval-tool').textContent())
      .toBe('Write');
    const id = /\/s\/([A-Za-z0-9_-]+)$/.exec(pageA.url())?.[1] ?? '';
    expect(id).not.toBe('');
    await untilStored(env.CODEAGENT_DATABASE_URL, id, (r) => r.pending_count === 1);

    // Another browser page, on instance B: the same session, the same waiting approval, granted there.
    const pageB = await context.newPage();
    const seenB = await watch(pageB, b.origin);
    await pageB.goto(b.url);
    await pageB.goto(`${b.origin}/s/${id}`);
    await waitStatus(pageB, 'awaiting-approval');
    const dock = pageB.getByTestId('approval');
    await expect
      .poll(() => dock.locator('.ca-approval-tool').textContent(), { timeout: 20_000 })
      .toBe('Write');
    await pageB.screenshot({ path: join(SCREENSHOT_DIR, 'multi-instance-approval-on-b.png') });
    await dock.getByRole('button', { name: 'Allow once' }).click();
    await expect
      .poll(() => pageB.getByTestId('transcript').textContent(), { timeout: 30_000 })
      .toContain('The file is written.');
    await waitStatus(pageB, 'ready');
    expect(await readFile(join(work, 'new.txt'), 'utf8')).toBe('written on A\n');
    const state = await pageB
      .locator('[data-row="tool"][data-tool="Write"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(state).toEqual(['output-available']);

    // The session continues on B, with the whole conversation sent to the model.
    await pageB.getByLabel('Message').fill('and now?');
    await pageB.getByLabel('Message').press('Enter');
    await expect
      .poll(() => pageB.getByTestId('transcript').textContent(), { timeout: 30_000 })
      .toMatch(/Continued on B with \d+ messages\./);
    expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain('write new.txt');
    await pageB.screenshot({ path: join(SCREENSHOT_DIR, 'multi-instance-continued-on-b.png') });
    // A reload of A's page shows what happened on B.
    await pageA.reload();
    await expect
      .poll(() => pageA.getByTestId('transcript').textContent(), { timeout: 30_000 })
      .toMatch(/Continued on B with \d+ messages\./);
    for (const seen of [seenA, seenB]) {
      expect(seen.errors).toEqual([]);
      expect(seen.dialogs).toEqual([]);
      expect(seen.foreignRequests).toEqual([]);
    }
  }, 120_000);

  it('kill -9 of A mid-turn: a page on B shows the session up to the last step, the turn interrupted', async () => {
    const work = await mkdtemp(join(tmpdir(), 'codeagent-web-multi-'));
    await writeFile(join(work, 'facts.txt'), 'the sky is green here\n');
    let stalled = false;
    const server = await startOpenAIServer({
      replies: (request) => {
        if (!(request.body.messages ?? []).some((m) => m.role === 'tool'))
          return { tools: [{ name: 'Read', args: { file_path: 'facts.txt' } }] };
        stalled = true;
        return { stallAfter: 'Thinking about' };
      },
    });
    cleanups.push(async () => {
      await server.close();
      await rm(work, { recursive: true, force: true });
    });
    const url = await freshDatabase();
    const env = {
      ...serverEnv(server, work),
      CODEAGENT_DATABASE_URL: url,
      CODEAGENT_HOME: join(work, '.home'),
    };
    const a = await startInstance(env, work);
    cleanups.push(() => a.stop());
    const b = await startInstance(env, work);
    cleanups.push(() => b.stop());
    const { context, close } = await launch();
    cleanups.push(close);
    const pageA = await context.newPage();
    await pageA.goto(a.url);
    await pageA.getByRole('button', { name: 'Start a session' }).click();
    await pageA.getByLabel('Message').fill('read facts.txt');
    await pageA.getByLabel('Message').press('Enter');
    await expect.poll(() => stalled, { timeout: 30_000 }).toBe(true);
    const id = /\/s\/([A-Za-z0-9_-]+)$/.exec(pageA.url())?.[1] ?? '';
    await untilStored(url, id, (r) => r.steps === 1 && (r.ui ?? '').includes('output-available'));
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    const pageB = await context.newPage();
    const seenB = await watch(pageB, b.origin);
    await pageB.goto(b.url);
    await pageB.goto(`${b.origin}/s/${id}`);
    await expect
      .poll(() => pageB.locator('[data-row="footer"]').last().textContent(), { timeout: 30_000 })
      .toContain('interrupted');
    const state = await pageB
      .locator('[data-row="tool"][data-tool="Read"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(state).toEqual(['output-available']);
    expect(await pageB.getByTestId('transcript').textContent()).toContain('the sky is green here');
    await waitStatus(pageB, 'ready');
    await pageB.screenshot({ path: join(SCREENSHOT_DIR, 'multi-instance-interrupted-on-b.png') });
    expect(seenB.errors).toEqual([]);
  }, 120_000);
});
