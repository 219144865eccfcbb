import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import react from '@vitejs/plugin-react';
import { type BrowserContext, chromium } from 'playwright-core';
import { build, defaultClientConditions } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserRendererCases, formatReport, runBrowserRendererSuite } from '../src/index.js';
import { recordReport } from './report-file.js';

// A real Chromium (Debian's) against a page that mounts @codeagent/react's ToolResultView.
let dir: string;
let server: Server;
let url: string;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codeagent-conformance-web-'));
  await build({
    root: join(import.meta.dirname, 'browser'),
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    resolve: { conditions: ['@codeagent/source', ...defaultClientConditions] },
    build: {
      outDir: dir,
      emptyOutDir: true,
      minify: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 8000,
    },
  });
  server = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const file = path === '/' ? '/index.html' : path;
    readFile(join(dir, file)).then(
      (body) => {
        const type =
          { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }[extname(file)] ??
          'application/octet-stream';
        res
          .writeHead(200, {
            'content-type': type,
            'content-security-policy':
              "default-src 'self'; img-src 'self' data:; style-src 'self'; object-src 'none'",
          })
          .end(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  profile = await mkdtemp(join(tmpdir(), 'codeagent-conformance-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
}, 180_000);

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
  await rm(profile, { recursive: true, force: true });
});

describe('the web renderer suite in Chromium', () => {
  it('has the XSS corpus in every placement and the fallbacks', () => {
    const cases = browserRendererCases();
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(cases.filter((c) => c.id.startsWith('web/xss/')).length).toBe(600);
  });

  it('@codeagent/react ToolResultView passes: no script, no dialog, no request off the page, fallbacks shown', async () => {
    const page = await context.newPage();
    await page.goto(url);
    const report = await runBrowserRendererSuite('@codeagent/react ToolResultView', page);
    await page.close();
    recordReport(report, 'Chromium');
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.counts.pass).toBe(browserRendererCases().length);
  }, 300_000);

  it('a renderer that inserts raw HTML is caught, naming the case and the rule', async () => {
    const page = await context.newPage();
    await page.goto(`${url}?renderer=broken`);
    const report = await runBrowserRendererSuite('broken renderer', page, { only: ['web/xss/value/'] });
    await page.close();
    expect(report.ok).toBe(false);
    const text = formatReport(report);
    expect(text).toMatch(
      /FAIL web\/xss\/value\/img-onerror {2}\[CONTRACTS §1 Trust boundary \(HTML\)[^\n]*\n\s+.*(script ran|onerror attribute)/,
    );
    expect(text).toMatch(/FAIL web\/xss\/value\/a-javascript {2}[^\n]*\n\s+.*href="javascript:/);
  }, 120_000);
});
