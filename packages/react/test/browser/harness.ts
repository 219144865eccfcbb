import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { build, defaultClientConditions } from 'vite';

const FIXTURE = fileURLToPath(new URL('./fixture/', import.meta.url));
/** Where the test run saves its screenshots (gitignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/** A strict policy: no inline script or style markup, images only from the page or data: URLs. */
export const STRICT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-src 'none'; object-src 'none'";

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

/** Builds the fixture app with Vite (siblings and this package from source). */
export async function buildFixture(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'codeagent-react-fixture-'));
  await build({
    root: FIXTURE,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    resolve: { conditions: ['@codeagent/source', ...defaultClientConditions] },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 4000,
    },
  });
  return outDir;
}

/** Serves the built fixture on 127.0.0.1 (port 0); `?csp=strict` adds {@link STRICT_CSP}. */
export async function serve(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = normalize(url.pathname === '/' ? '/index.html' : url.pathname);
      if (path.includes('..')) {
        res.writeHead(400).end();
        return;
      }
      try {
        const body = await readFile(join(root, path));
        const headers: Record<string, string> = {
          'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
        };
        if (url.searchParams.get('csp') === 'strict') {
          headers['content-security-policy'] = STRICT_CSP;
        }
        res.writeHead(200, headers).end(body);
      } catch {
        res.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a page did that a test must check: dialogs, requests off loopback, errors, CSP violations. */
export interface PageWatch {
  page: Page;
  dialogs: string[];
  offLoopback: string[];
  pageErrors: string[];
  consoleErrors: string[];
}

/** Launches Chromium (Debian's, fresh profile, no background networking). */
export async function launch(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'codeagent-react-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
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
    viewport: { width: 900, height: 800 },
    deviceScaleFactor: 1,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Opens a page that records dialogs, requests to any host but 127.0.0.1 (aborted), errors and CSP reports. */
export async function watchedPage(context: BrowserContext): Promise<PageWatch> {
  const page = await context.newPage();
  const watch: PageWatch = { page, dialogs: [], offLoopback: [], pageErrors: [], consoleErrors: [] };
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname !== '127.0.0.1') {
      watch.offLoopback.push(route.request().url());
      await route.abort();
    } else await route.continue();
  });
  page.on('dialog', (dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  page.on('pageerror', (error) => watch.pageErrors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return watch;
}

/** Mounts a fixture scenario in `theme`. */
export async function mount(page: Page, name: string, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate(([n, t]) => window.__mount(n as string, t as 'light' | 'dark'), [name, theme]);
}
