// Web host rendering bench, in Debian's Chromium, one run: a 2,000-card transcript's first render and a scroll
// through it, then 50,000 streamed text deltas into the same session; ours (virtualised transcript) against the
// same page with virtualisation off (`?virtual=0`). Reports time and the longest main-thread task (goal: <= 50 ms),
// read from a Chromium trace (every `RunTask` of the renderer's main thread, so tasks under 50 ms count too).
// BENCH_PROFILE=1 also prints the functions with the most self time in each phase (a CPU profile over CDP).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@codeagent/providers';
import { chromium } from 'playwright-core';
import { recordBench } from '../../../scripts/bench-lib.mjs';
import { startWebHost } from '../dist/server/server.js';
import { openSessionStore } from '../dist/server/store.js';

const CARDS = Number(process.env.BENCH_CARDS ?? 2000);
const DELTAS = Number(process.env.BENCH_DELTAS ?? 50_000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PROFILE = process.env.BENCH_PROFILE === '1';

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

/** A browser-wide trace: the longest task of any renderer main thread between `start()` and `stop()`. */
async function tracer(browser) {
  const cdp = await browser.newBrowserCDPSession();
  let events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  return {
    async start() {
      events = [];
      await cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: {
          includedCategories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            ...(PROFILE ? ['toplevel', 'v8', 'blink', 'loading'] : []),
          ],
        },
      });
    },
    /** Stops and returns the longest main-thread task in ms and the three longest with what ran in them. */
    async stop() {
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.end');
      await done;
      const main = new Set(
        events
          .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
          .map((e) => `${e.pid}:${e.tid}`),
      );
      const onMain = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X');
      const tasks = onMain.filter((e) => e.name === 'RunTask').sort((a, b) => b.dur - a.dur);
      const top = tasks.slice(0, 3).map((t) => {
        const inside = onMain.filter(
          (e) =>
            e !== t && e.pid === t.pid && e.tid === t.tid && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur,
        );
        const by = new Map();
        for (const e of inside) by.set(e.name, (by.get(e.name) ?? 0) + e.dur);
        const what = [...by]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([n, d]) => `${n} ${(d / 1000).toFixed(0)}`)
          .join(', ');
        const src = t.args?.src_func ? ` ${t.args.src_file?.split('/').pop()}:${t.args.src_func}` : '';
        const cpu = t.tdur === undefined ? 'no CPU time' : `CPU ${(t.tdur / 1000).toFixed(0)} ms`;
        return `${(t.dur / 1000).toFixed(0)} ms, ${cpu}${PROFILE ? src : ''} (${what})`;
      });
      // The CPU time the main thread spent in its longest task (`tdur`): on a machine shared with other work the
      // wall time also counts the time the thread waited for a core.
      const cpu = Math.max(0, ...tasks.map((t) => t.tdur ?? 0)) / 1000;
      return { longest: (tasks[0]?.dur ?? 0) / 1000, cpu, top, windows: tasks.slice(0, 3) };
    },
  };
}

let lastProfile = null;

/** What ran (inclusive time per function) in each of the longest traced tasks, from the last CPU profile. */
function explain(trace) {
  const profile = lastProfile;
  if (!PROFILE || !profile) return;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id) => {
    const f = byId.get(id)?.callFrame;
    return f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}` : '?';
  };
  for (const task of trace.windows) {
    const inclusive = new Map();
    let t = profile.startTime;
    profile.samples.forEach((id, i) => {
      t += profile.timeDeltas[i] ?? 0;
      if (t < task.ts || t > task.ts + task.dur) return;
      const dt = profile.timeDeltas[i + 1] ?? 0;
      const seen = new Set();
      for (let n = id; n !== undefined; n = parent.get(n)) {
        const k = name(n);
        if (seen.has(k)) continue;
        seen.add(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
      }
    });
    console.error(`    task of ${(task.dur / 1000).toFixed(0)} ms, inclusive:`);
    for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 40))
      console.error(`      ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
  }
}

/** A CPU profile of the page while `body` runs: the functions with the most self time (BENCH_PROFILE=1). */
async function profiled(page, label, body) {
  if (!PROFILE) return body();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const out = await body();
  const { profile } = await cdp.send('Profiler.stop');
  lastProfile = profile;
  // Saved for Chromium's DevTools (Performance > Load profile) and for reading callers.
  const file = join(tmpdir(), `codeagent-web-bench-${label.replace(/\W+/g, '-')}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  console.error(`  profile saved: ${file}`);
  const self = new Map();
  const dt = new Map();
  profile.samples.forEach((id, i) => {
    dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt.get(node.id) ?? 0));
  }
  const top = [...self]
    .filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12);
  console.error(`  profile ${label}:`);
  for (const [k, us] of top) console.error(`    ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
  await cdp.detach();
  return out;
}

async function measure(id, query, trace) {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror', e.message));
  page.on('console', (m) => m.type() === 'error' && console.error('console', m.text()));
  await page.goto(host.url);
  await trace.start();
  const render = await profiled(page, `${id} first render`, async () => {
    await page.goto(`${host.origin}/s/${id}${query}`);
    await page.waitForSelector('[data-testid="transcript"] [data-row="tool"]', { timeout: 120_000 });
    return page.evaluate(
      () =>
        new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))),
    );
  });
  // Let the first render settle (lazy highlighting, measuring rows) inside the traced window.
  await page.waitForTimeout(500);
  const renderTask = await trace.stop();
  const domRows = await page.locator('[data-row]').count();
  console.error(`  ${id}: rendered in ${render.toFixed(0)} ms, ${domRows} rows in the DOM`);
  console.error(`    longest tasks: ${renderTask.top.join('; ')}`);
  explain(renderTask);
  // Scroll from the bottom to the top, one screen a frame.
  await trace.start();
  const scroll = await profiled(page, `${id} scroll`, () =>
    page.evaluate(async () => {
      const el = document.querySelector('[data-testid="transcript"]');
      const t0 = performance.now();
      let steps = 0;
      let travelled = 0;
      while (el.scrollTop > 0 && steps < 4000) {
        const before = el.scrollTop;
        el.scrollTop = Math.max(0, el.scrollTop - el.clientHeight);
        travelled += before - el.scrollTop;
        steps++;
        await new Promise((r) => requestAnimationFrame(r));
      }
      return { ms: performance.now() - t0, steps, travelled };
    }),
  );
  const scrollTask = await trace.stop();
  console.error(`  ${id}: scrolled ${scroll.steps} screens in ${scroll.ms.toFixed(0)} ms`);
  console.error(`    longest tasks: ${scrollTask.top.join('; ')}`);
  explain(scrollTask);
  // Stream 50,000 deltas into the same transcript (scrolled back to the bottom).
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="transcript"]');
    el.scrollTop = el.scrollHeight;
  });
  await page.waitForTimeout(300);
  const turnsBefore = Number(await page.getByTestId('transcript').getAttribute('data-turns-done'));
  await page.locator('textarea[aria-label="Message"]').fill('stream');
  await page.waitForFunction(() => !document.querySelector('button.send')?.hasAttribute('disabled'));
  await trace.start();
  const streamStart = await page.evaluate(() => performance.now());
  await profiled(page, `${id} stream`, async () => {
    // A plain DOM click: Playwright's role lookup walks the accessibility tree of the whole page, itself a long task.
    await page.evaluate(() => document.querySelector('button.send').click());
    // Cheap checks only (two attributes): reading the DOM's text while it streams would itself make long tasks.
    await page.waitForFunction(
      (before) =>
        document.querySelector('[data-testid="status"]')?.getAttribute('data-status') === 'ready' &&
        Number(document.querySelector('[data-testid="transcript"]')?.getAttribute('data-turns-done')) >
          before,
      turnsBefore,
      { timeout: 600_000, polling: 100 },
    );
  });
  const streamMs = (await page.evaluate(() => performance.now())) - streamStart;
  const streamTask = await trace.stop();
  console.error(`  ${id}: streamed in ${streamMs.toFixed(0)} ms`);
  console.error(`    longest tasks: ${streamTask.top.join('; ')}`);
  explain(streamTask);
  // The end of the answer is on screen (a virtualised row renders its content right after it mounts).
  const whole = await page
    .waitForFunction(
      () => document.querySelector('[data-testid="transcript"]')?.textContent?.includes('stream-finished'),
      undefined,
      { timeout: 5000, polling: 100 },
    )
    .then(
      () => true,
      () => false,
    );
  if (!whole) console.error(`  ${id}: the end of the streamed text is not on screen`);
  await page.close();
  return {
    render,
    renderTask: renderTask.longest,
    renderCpu: renderTask.cpu,
    domRows,
    scroll: scroll.ms,
    scrollSteps: scroll.steps,
    scrollTask: scrollTask.longest,
    scrollCpu: scrollTask.cpu,
    streamMs,
    streamTask: streamTask.longest,
    streamCpu: streamTask.cpu,
  };
}

try {
  const trace = await tracer(context.browser());
  const ours = await measure('bench-virtual', '', trace);
  const base = await measure('bench-plain', '?virtual=0', trace);
  const row = (name, a, b, unit = 'ms') =>
    `| ${name} | ${a.toFixed(0)} ${unit} | ${b.toFixed(0)} ${unit} | ${(a / b).toFixed(2)} |`;
  console.log(
    `web host bench: ${CARDS} cards, ${DELTAS} streamed deltas, Chromium ${context.browser()?.version() ?? ''}, one run`,
  );
  console.log('| metric | ours (virtualised) | baseline (no virtualisation) | ratio ours/baseline |');
  console.log('|---|---|---|---|');
  console.log(row('first render (navigation to painted)', ours.render, base.render));
  console.log(row('longest task during first render', ours.renderTask, base.renderTask));
  console.log(row('  its CPU time (most CPU in one task)', ours.renderCpu, base.renderCpu));
  console.log(
    row(`scroll to top (${ours.scrollSteps} / ${base.scrollSteps} screens)`, ours.scroll, base.scroll),
  );
  console.log(row('scroll time per screen', ours.scroll / ours.scrollSteps, base.scroll / base.scrollSteps));
  console.log(row('longest task while scrolling', ours.scrollTask, base.scrollTask));
  console.log(row('  most CPU in one task while scrolling', ours.scrollCpu, base.scrollCpu));
  console.log(row(`${DELTAS.toLocaleString('en')} deltas: send to done`, ours.streamMs, base.streamMs));
  console.log(row('longest task while streaming', ours.streamTask, base.streamTask));
  console.log(row('  most CPU in one task while streaming', ours.streamCpu, base.streamCpu));
  console.log(`DOM rows: ${ours.domRows} virtualised vs ${base.domRows}; goal: no task over 50 ms`);
  // The same figures in the shared bench format (.bench/web.render.json, read by the root `pnpm bench` summary).
  const noLongTask = { max: 50, on: 'value', note: 'ms: no task over 50 ms' };
  const fig = (name, what, a, b, goal) => ({
    name,
    what,
    unit: 'ms',
    ours: a,
    baseline: b,
    baselineName: 'the same page without virtualisation',
    ...(goal ? { goal } : {}),
  });
  recordBench(
    '@codeagent/web',
    `the web host in Chromium: ${CARDS} cards, ${DELTAS} streamed deltas, one run each side`,
    [
      fig('first render', 'navigation to painted', ours.render, base.render),
      fig(
        'longest task, first render',
        'longest main-thread task during the first render',
        ours.renderTask,
        base.renderTask,
        noLongTask,
      ),
      fig(
        'scroll per screen',
        'scroll time per screen',
        ours.scroll / ours.scrollSteps,
        base.scroll / base.scrollSteps,
      ),
      fig(
        'longest task, scrolling',
        'longest task while scrolling to the top',
        ours.scrollTask,
        base.scrollTask,
        noLongTask,
      ),
      fig('streaming', `${DELTAS} deltas: send to done`, ours.streamMs, base.streamMs),
      fig(
        'longest task, streaming',
        'longest task while streaming',
        ours.streamTask,
        base.streamTask,
        noLongTask,
      ),
    ],
    'render',
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
} finally {
  await context.close();
  await host.close();
  await rm(profile, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
}
