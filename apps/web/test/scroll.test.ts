// Fast scrolling through a long (virtualised) transcript in Chromium: at every animation frame after a scroll, the
// rows inside the viewport show their content, never a placeholder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@codeagent/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcript } from '../bench/transcript-fixture.mjs';
import { startWebHost, type WebHost } from '../src/server/server.ts';
import { openSessionStore } from '../src/server/store.ts';
import { CLIENT_DIR, launch, SCREENSHOT_DIR, watch } from './browser.ts';

const CARDS = 600;

let host: WebHost;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codeagent-web-scroll-'));
  const database = join(dir, 'sessions.db');
  const opened = await openSessionStore({ database });
  const ui = transcript(CARDS) as NonNullable<Parameters<typeof opened.store.create>[0]['ui']>;
  await opened.store.create({ id: 'long', title: 'long', meta: { mode: 'default' }, ui });
  await opened.close();
  host = await startWebHost({
    config: {
      cwd: dir,
      model: () => ({ model: scriptedModel([]), contextWindow: 100_000, maxOutputTokens: 4_000 }),
      modelLabel: 'scroll (scripted)',
      demo: false,
      note: null,
      deny: [],
    },
    database,
    clientDir: CLIENT_DIR,
  });
}, 30_000);
afterAll(async () => {
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What a frame showed: rows in the viewport, how many of them were placeholders, and where the view was. */
interface Frame {
  readonly top: number;
  readonly rows: number;
  readonly placeholders: number;
}

describe('fast scrolling a long transcript (Chromium)', () => {
  it('shows content in the viewport at the next animation frame, never a placeholder', async () => {
    const { context, close } = await launch();
    try {
      const page = await context.newPage();
      const seen = await watch(page, host.origin);
      await page.goto(host.url);
      await page.goto(`${host.origin}/s/long`);
      const view = page.getByTestId('transcript');
      await expect.poll(() => view.getAttribute('data-virtual'), { timeout: 30_000 }).toBe('on');
      await expect
        .poll(() => page.locator('[data-row="tool"]').count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      await page.waitForTimeout(300);
      // Up from the bottom, then down again, a screen and a half each frame: each new frame's viewport is made
      // of rows that were not mounted the frame before. The check runs in the animation frame after each scroll
      // (Chromium dispatches the scroll event, which renders, before the frame's animation callbacks and paint).
      const frames = await page.evaluate(async () => {
        const el = document.querySelector('[data-testid="transcript"]') as HTMLElement;
        const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
        const look = () => {
          const box = el.getBoundingClientRect();
          let rows = 0;
          let placeholders = 0;
          for (const row of el.querySelectorAll<HTMLElement>('.virtual-row')) {
            const r = row.getBoundingClientRect();
            if (r.bottom <= box.top || r.top >= box.bottom || r.height === 0) continue;
            rows++;
            if (row.querySelector('.row-placeholder')) placeholders++;
          }
          return { top: el.scrollTop, rows, placeholders };
        };
        const out: { top: number; rows: number; placeholders: number }[] = [];
        const step = Math.round(el.clientHeight * 1.5);
        for (const direction of [-1, 1]) {
          for (let i = 0; i < 40; i++) {
            el.scrollTop += direction * step;
            await frame();
            out.push(look());
          }
        }
        return out;
      });
      const moved = frames as Frame[];
      expect(moved.length).toBe(80);
      // It really scrolled (dozens of screens) and every frame had rows on screen.
      const screen = await view.evaluate((el) => el.clientHeight);
      const tops = moved.map((f) => f.top);
      expect(Math.max(...tops) - Math.min(...tops)).toBeGreaterThan(screen * 15);
      for (const f of moved) expect(f.rows, `rows at ${f.top}`).toBeGreaterThan(0);
      expect(moved.filter((f) => f.placeholders > 0)).toEqual([]);
      // A jump (the scrollbar dragged to the middle): the same in the next frame.
      const jump = (await page.evaluate(async () => {
        const el = document.querySelector('[data-testid="transcript"]') as HTMLElement;
        el.scrollTop = Math.round(el.scrollHeight / 2);
        await new Promise((r) => requestAnimationFrame(r));
        const box = el.getBoundingClientRect();
        let rows = 0;
        let placeholders = 0;
        for (const row of el.querySelectorAll<HTMLElement>('.virtual-row')) {
          const r = row.getBoundingClientRect();
          if (r.bottom <= box.top || r.top >= box.bottom || r.height === 0) continue;
          rows++;
          if (row.querySelector('.row-placeholder')) placeholders++;
        }
        return { top: el.scrollTop, rows, placeholders };
      })) as Frame;
      expect(jump.rows).toBeGreaterThan(0);
      expect(jump.placeholders).toBe(0);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'scroll-jump.png') });
      expect(seen.errors).toEqual([]);
      expect(seen.violations).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);
});
