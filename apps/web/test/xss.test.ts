import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Script, scriptedModel } from '@codeagent/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../src/server/server.ts';
import { CLIENT_DIR, launch, SCREENSHOT_DIR, watch } from './browser.ts';

// Payload URLs point at a port nobody listens on; the test fails if the page even tries them.
const P = 'http://127.0.0.1:9';
const HTML_PAYLOADS = [
  `<img src="${P}/img-onerror.png" onerror="window.__xss='img'">`,
  `<script>window.__xss='script'</script>`,
  `<svg onload="window.__xss='svg'"><circle r="5"/></svg>`,
  `<iframe src="${P}/frame"></iframe>`,
  `<a href="javascript:window.__xss='href'">click</a>`,
  `<style>@import url(${P}/style.css);</style>`,
];
const MARKDOWN_PAYLOADS = [
  `[link](javascript:window.__xss='md-link')`,
  `![pixel](${P}/md-image.png)`,
  `[data](data:text/html,<script>window.__xss='data'</script>)`,
  '\u202Egnp.exe\u202C bidi override and <b onmouseover="window.__xss=1">bold</b>',
];
const text = [...HTML_PAYLOADS, ...MARKDOWN_PAYLOADS].join('\n\n');

const script: Script = [
  {
    parts: [
      { type: 'text', text: `Here are some payloads:\n\n${text}\n` },
      {
        type: 'tool-call',
        toolName: 'Write',
        input: { file_path: 'evil.html', content: HTML_PAYLOADS.join('\n') },
      },
      {
        type: 'tool-call',
        toolName: 'Bash',
        input: {
          command: `printf '%s\\n' '${HTML_PAYLOADS[0]?.replaceAll("'", '')}' && printf '\\033]8;;${P}/osc8\\033\\\\osc link\\033]8;;\\033\\\\\\n'`,
          description: '<img src=x onerror="window.__xss=\'desc\'">',
        },
      },
    ],
  },
  {
    parts: [{ type: 'tool-call', toolName: 'Read', input: { file_path: 'evil.html' } }],
  },
  { parts: [{ type: 'text', text: `Done. ${MARKDOWN_PAYLOADS[0]}` }] },
];

let host: WebHost;
let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'codeagent-web-xss-'));
  host = await startWebHost({
    config: {
      cwd,
      model: () => ({ model: scriptedModel(script), contextWindow: 100_000, maxOutputTokens: 4_000 }),
      modelLabel: 'xss corpus (scripted)',
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

describe('payloads in model text and tool results, through the real server and SPA', () => {
  it('shows them as text: no dialog, no script, no request to a payload URL', async () => {
    const { context, close } = await launch();
    try {
      const page = await context.newPage();
      const seen = await watch(page, host.origin);
      await page.goto(host.url);
      const headers = { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' };
      const session = await (
        await fetch(`${host.origin}/api/sessions`, { method: 'POST', headers, body: '{}' })
      ).json();
      await fetch(`${host.origin}/api/sessions/${session.id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ mode: 'bypass' }),
      });
      await page.goto(`${host.origin}/s/${session.id}`);
      await page
        .getByLabel('Message')
        .fill(`show me <img src="${P}/prompt.png" onerror="window.__xss='prompt'">`);
      await page.getByLabel('Message').press('Enter');
      await expect.poll(() => page.locator('[data-row="footer"]').count(), { timeout: 30_000 }).toBe(1);
      // Every tool card rendered, the payload shown as text.
      expect(await page.locator('[data-row="tool"]').count()).toBe(3);
      const body = (await page.locator('[data-testid="transcript"]').textContent()) ?? '';
      expect(body).toContain('<script>');
      expect(body).toContain('onerror=');
      await page.reload();
      await expect.poll(() => page.locator('[data-row="tool"]').count(), { timeout: 20_000 }).toBe(3);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'xss-corpus.png'), fullPage: false });
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
      expect(
        await page.locator('#root script, #root iframe, #root svg[onload], #root [onerror]').count(),
      ).toBe(0);
      const hrefs = await page
        .locator('#root a[href]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      for (const href of hrefs) expect(href).not.toMatch(/^(javascript|data):/i);
      expect(seen.dialogs).toEqual([]);
      expect(seen.errors).toEqual([]);
      expect(seen.violations).toEqual([]);
      expect(seen.foreignRequests).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);
});
