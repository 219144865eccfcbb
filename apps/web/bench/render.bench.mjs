// Web host rendering bench, in Debian's Chromium, one run: a 2,000-card transcript's first render and a scroll
// through it, then 50,000 streamed text deltas into the same session; ours (virtualised transcript) against the
// same page with virtualisation off (`?virtual=0`). Reports time and the longest main-thread task (goal: <= 50 ms).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@codeagent/providers';
import { chromium } from 'playwright-core';
import { startWebHost } from '../dist/server/server.js';
import { openSessionStore } from '../dist/server/store.js';

const CARDS = Number(process.env.BENCH_CARDS ?? 2000);
const DELTAS = Number(process.env.BENCH_DELTAS ?? 50_000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const artifact = (kind, payload) => ({
  schema: 'codeagent.tool-artifact',
  version: 1,
  kind,
  status: 'success',
  icon: null,
  title: null,
  payload,
});

/** One tool part of each kind in turn: code, terminal, diff, table, text. */
function toolPart(i) {
  const path = `src/module-${i}.ts`;
  const code = `export function f${i}(x: number): number {\n  return x * ${i} + 1;\n}\n`;
  const base = { type: 'dynamic-tool', toolCallId: `call-${i}`, state: 'output-available' };
  const meta = (call, result, art, value) => ({
    ...base,
    toolName: call.toolName,
    title: call.view.title,
    input: call.input,
    output: value,
    toolMetadata: { codeagent: { call: call.view, intent: null, result, artifact: art, isError: false } },
  });
  switch (i % 5) {
    case 0:
      return meta(
        {
          toolName: 'Read',
          input: { file_path: path },
          view: { card: 'generic', title: `Read ${path}`, kind: 'read', locations: [{ path, line: 1 }] },
        },
        { card: 'generic', content: [{ type: 'text', text: code }] },
        artifact('code', { text: code, lang: 'typescript', filename: path }),
        code,
      );
    case 1: {
      const output = `\u001b[32m✓\u001b[0m test ${i} passed\n\u001b[32m✓\u001b[0m test ${i + 1} passed\n`;
      return meta(
        {
          toolName: 'Bash',
          input: { command: `npm test -- ${i}` },
          view: { card: 'terminal', title: `npm test -- ${i}`, cwd: '/work' },
        },
        { card: 'terminal', output, exitCode: 0 },
        artifact('text', { text: output }),
        output,
      );
    }
    case 2: {
      const diffs = [{ path, oldText: `  return x * ${i};`, newText: `  return x * ${i} + 1;` }];
      return meta(
        {
          toolName: 'Edit',
          input: { file_path: path },
          view: { card: 'diff', title: `Edit ${path}`, diffs },
        },
        { card: 'diff', diffs },
        artifact('diff', { old: `  return x * ${i};\n`, new: `  return x * ${i} + 1;\n`, path }),
        `Edited ${path}`,
      );
    }
    case 3: {
      const df = Array.from({ length: 8 }, (_, r) => ({
        file: `src/m${r}.ts`,
        line: r + 1,
        text: `// TODO ${i}.${r}`,
      }));
      return meta(
        {
          toolName: 'Grep',
          input: { pattern: 'TODO' },
          view: { card: 'generic', title: `Grep TODO (${i})`, kind: 'search' },
        },
        { card: 'generic' },
        artifact('table', { df }),
        `${df.length} matches`,
      );
    }
    default:
      return meta(
        {
          toolName: 'TodoWrite',
          input: {},
          view: { card: 'generic', title: `Todo list ${i}`, kind: 'other' },
        },
        { card: 'generic', content: [{ type: 'text', text: `- [x] step ${i}\n- [ ] step ${i + 1}` }] },
        artifact('text', { text: `- [x] step ${i}\n- [ ] step ${i + 1}` }),
        `- [x] step ${i}`,
      );
  }
}

function transcript() {
  const parts = [];
  for (let i = 0; i < CARDS; i++) {
    if (i % 10 === 0)
      parts.push({
        type: 'text',
        text: `Working on batch **${i / 10}**: reading, testing, editing.`,
        state: 'done',
      });
    parts.push(toolPart(i));
  }
  return [
    { id: 'bench-user', role: 'user', parts: [{ type: 'text', text: 'Do the big refactor.' }] },
    {
      id: 'bench-assistant',
      role: 'assistant',
      parts,
      metadata: { stopReason: 'completed', finishReason: 'stop', usage: null, awaitingApproval: false },
    },
  ];
}

// 50,000 deltas of four characters ("word "), in paragraphs of 40 words.
const words = [];
for (let i = 0; i < DELTAS; i++) words.push((i + 1) % 40 === 0 ? 'end\n\n' : 'wrd ');
const streamed = `${words.join('')}\n\nstream-finished`;

const dir = await mkdtemp(join(tmpdir(), 'codeagent-web-bench-'));
const database = join(dir, 'sessions.db');
const opened = await openSessionStore({ database });
const ui = transcript();
for (const id of ['bench-virtual', 'bench-plain']) {
  await opened.store.create({ id, title: id, meta: { mode: 'bypass' }, ui });
}
await opened.close();

const host = await startWebHost({
  config: {
    cwd: dir,
    model: () => ({
      model: scriptedModel([{ parts: [{ type: 'text', text: streamed }] }], { chunkSize: 4 }),
      contextWindow: 1_000_000,
      maxOutputTokens: 100_000,
    }),
    modelLabel: 'bench (scripted)',
    demo: false,
    note: null,
    deny: [],
  },
  database,
});
const profile = await mkdtemp(join(tmpdir(), 'codeagent-web-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  viewport: { width: 1280, height: 900 },
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

async function measure(id, query) {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror', e.message));
  page.on('console', (m) => m.type() === 'error' && console.error('console', m.text()));
  await page.addInitScript(() => {
    window.__tasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(host.url);
  await page.goto(`${host.origin}/s/${id}${query}`);
  await page.waitForSelector('[data-testid="transcript"] [data-row="tool"]', { timeout: 120_000 });
  const render = await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))),
  );
  const longest = (since) =>
    page.evaluate(
      (t) => Math.max(0, ...window.__tasks.filter((x) => x.start >= t).map((x) => x.duration)),
      since,
    );
  const renderTask = await longest(0);
  const domRows = await page.locator('[data-row]').count();
  console.error(`  ${id}: rendered in ${render.toFixed(0)} ms, ${domRows} rows in the DOM`);
  // Scroll from the bottom to the top, one screen a frame.
  const scrollStart = await page.evaluate(() => performance.now());
  const scroll = await page.evaluate(async () => {
    const el = document.querySelector('[data-testid="transcript"]');
    const t0 = performance.now();
    let steps = 0;
    while (el.scrollTop > 0 && steps < 2000) {
      el.scrollTop = Math.max(0, el.scrollTop - el.clientHeight);
      steps++;
      await new Promise((r) => requestAnimationFrame(r));
    }
    return { ms: performance.now() - t0, steps };
  });
  const scrollTask = await longest(scrollStart);
  console.error(`  ${id}: scrolled in ${scroll.ms.toFixed(0)} ms`);
  // Stream 50,000 deltas into the same transcript (scrolled back to the bottom).
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="transcript"]');
    el.scrollTop = el.scrollHeight;
  });
  await page.waitForTimeout(300);
  const turnsBefore = Number(await page.getByTestId('transcript').getAttribute('data-turns-done'));
  const streamStart = await page.evaluate(() => performance.now());
  await page.getByLabel('Message').fill('stream');
  await page.waitForFunction(() => !document.querySelector('button.send')?.hasAttribute('disabled'));
  await page.getByRole('button', { name: 'Send' }).click();
  // Cheap checks only (two attributes): reading the DOM's text while it streams would itself make long tasks.
  await page.waitForFunction(
    (before) =>
      document.querySelector('[data-testid="status"]')?.getAttribute('data-status') === 'ready' &&
      Number(document.querySelector('[data-testid="transcript"]')?.getAttribute('data-turns-done')) > before,
    turnsBefore,
    { timeout: 600_000, polling: 100 },
  );
  const streamMs = (await page.evaluate(() => performance.now())) - streamStart;
  const streamTask = await longest(streamStart);
  const shown = await page.evaluate(
    () => document.querySelector('[data-testid="transcript"]').textContent.length,
  );
  await page.close();
  return {
    render,
    renderTask,
    domRows,
    scroll: scroll.ms,
    scrollSteps: scroll.steps,
    scrollTask,
    streamMs,
    streamTask,
    shown,
  };
}

try {
  const ours = await measure('bench-virtual', '');
  const base = await measure('bench-plain', '?virtual=0');
  const row = (name, a, b, unit = 'ms') =>
    `| ${name} | ${a.toFixed(0)} ${unit} | ${b.toFixed(0)} ${unit} | ${(a / b).toFixed(2)} |`;
  console.log(
    `web host bench: ${CARDS} cards, ${DELTAS} streamed deltas, Chromium ${context.browser()?.version() ?? ''}, one run`,
  );
  console.log('| metric | ours (virtualised) | baseline (no virtualisation) | ratio ours/baseline |');
  console.log('|---|---|---|---|');
  console.log(row('first render (navigation to painted)', ours.render, base.render));
  console.log(row('longest task during first render', ours.renderTask, base.renderTask));
  console.log(
    row(`scroll to top (${ours.scrollSteps} / ${base.scrollSteps} screens)`, ours.scroll, base.scroll),
  );
  console.log(row('longest task while scrolling', ours.scrollTask, base.scrollTask));
  console.log(row(`${DELTAS.toLocaleString('en')} deltas: send to done`, ours.streamMs, base.streamMs));
  console.log(row('longest task while streaming', ours.streamTask, base.streamTask));
  console.log(`DOM rows: ${ours.domRows} virtualised vs ${base.domRows}; goal: no task over 50 ms`);
} finally {
  await context.close();
  await host.close();
  await rm(profile, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
}
