// Web host rendering bench, in Debian's Chromium: a 2,000-card transcript's first render and a scroll through it,
// then 50,000 streamed text deltas into the same session; ours (virtualised transcript) against the same page with
// virtualisation off (`?virtual=0`), BENCH_RUNS runs of each (default 3, the order alternating). Reports time and
// the longest main-thread task (goal: <= 50 ms), read from a Chromium trace (every `RunTask` of the renderer's
// main thread, so tasks under 50 ms count too), in wall time and in the CPU time the thread spent in it (on a
// shared machine the wall time also counts the time the thread waited for a core). Prints the shared bench format
// (scripts/bench-lib.mjs, ADR 0205) and writes .bench/web.render.json.
// BENCH_PROFILE=1 also prints the functions with the most self time in each phase (a CPU profile over CDP).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@codeagent/providers';
import { chromium } from 'playwright-core';
import { benchSuite, median } from '../../../scripts/bench-lib.mjs';
import { startWebHost } from '../dist/server/server.js';
import { openSessionStore } from '../dist/server/store.js';
import { transcript } from './transcript-fixture.mjs';

const CARDS = Number(process.env.BENCH_CARDS ?? 2000);
const DELTAS = Number(process.env.BENCH_DELTAS ?? 50_000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PROFILE = process.env.BENCH_PROFILE === '1';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

// 50,000 deltas of four characters ("word "), in paragraphs of 40 words.
const words = [];
for (let i = 0; i < DELTAS; i++) words.push((i + 1) % 40 === 0 ? 'end\n\n' : 'wrd ');
const streamed = `${words.join('')}\n\nstream-finished`;

const dir = await mkdtemp(join(tmpdir(), 'codeagent-web-bench-'));
const database = join(dir, 'sessions.db');
const opened = await openSessionStore({ database });
const ui = transcript(CARDS);
// A fresh copy of the session for every run (a run streams a turn into it).
for (let run = 0; run < RUNS; run++) {
  for (const id of [`bench-virtual-${run}`, `bench-plain-${run}`])
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

/**
 * The kernel's scheduler statistics of every thread of every Chromium renderer process (`/proc/<pid>/task/<tid>/
 * schedstat`): `pid:tid` -> [ns on a CPU, ns runnable but waiting in a run queue]. The second figure is the time a
 * thread wanted a core and did not get one; nothing in the page can cause it.
 */
function rendererThreads() {
  const out = new Map();
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const [cpu, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        out.set(`${pid}:${tid}`, [cpu, wait]);
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** A browser-wide trace: the longest task of any renderer main thread between `start()` and `stop()`. */
async function tracer(browser) {
  const cdp = await browser.newBrowserCDPSession();
  let events = [];
  let sched = new Map();
  let startedAt = 0;
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  return {
    async start() {
      events = [];
      sched = rendererThreads();
      startedAt = performance.now();
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
      const after = rendererThreads();
      const wallMs = performance.now() - startedAt;
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
      // The main thread that ran the longest task, over the whole phase: time on a CPU and time it waited for one.
      const key = tasks[0] ? `${tasks[0].pid}:${tasks[0].tid}` : '';
      const [cpu0, wait0] = sched.get(key) ?? [Number.NaN, Number.NaN];
      const [cpu1, wait1] = after.get(key) ?? [Number.NaN, Number.NaN];
      const thread = { wallMs, cpuMs: (cpu1 - cpu0) / 1e6, waitMs: (wait1 - wait0) / 1e6 };
      return {
        thread,
        longest: (tasks[0]?.dur ?? 0) / 1000,
        // The CPU time of that longest task (the rest of its wall time the thread waited).
        longestCpu: (tasks[0]?.tdur ?? 0) / 1000,
        cpu,
        top,
        windows: tasks.slice(0, 3),
      };
    },
  };
}

let lastProfile = null;

/** The main thread's time over a phase, in words. */
const threadText = ({ thread: t }) =>
  `main thread over the phase: ${t.wallMs.toFixed(0)} ms wall, ${t.cpuMs.toFixed(0)} ms on a CPU, ${t.waitMs.toFixed(0)} ms waiting for one (${((100 * t.waitMs) / t.wallMs).toFixed(0)}%)`;

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
  console.error(
    `  ${id}: rendered in ${render.toFixed(0)} ms, ${domRows} rows in the DOM; ${threadText(renderTask)}`,
  );
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
  console.error(
    `  ${id}: scrolled ${scroll.steps} screens in ${scroll.ms.toFixed(0)} ms; ${threadText(scrollTask)}`,
  );
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
  console.error(`  ${id}: streamed in ${streamMs.toFixed(0)} ms; ${threadText(streamTask)}`);
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
    renderTaskCpu: renderTask.longestCpu,
    renderCpu: renderTask.cpu,
    renderWait: (100 * renderTask.thread.waitMs) / renderTask.thread.wallMs,
    domRows,
    scroll: scroll.ms,
    scrollSteps: scroll.steps,
    scrollTask: scrollTask.longest,
    scrollTaskCpu: scrollTask.longestCpu,
    scrollCpu: scrollTask.cpu,
    scrollWait: (100 * scrollTask.thread.waitMs) / scrollTask.thread.wallMs,
    streamMs,
    streamTask: streamTask.longest,
    streamTaskCpu: streamTask.longestCpu,
    streamCpu: streamTask.cpu,
    streamWait: (100 * streamTask.thread.waitMs) / streamTask.thread.wallMs,
  };
}

try {
  const trace = await tracer(context.browser());
  const ours = [];
  const base = [];
  for (let run = 0; run < RUNS; run++) {
    // The order alternates, so neither side always runs first (a cold cache, a quieter moment).
    console.error(`run ${run + 1} of ${RUNS} (load ${loadavg()[0].toFixed(1)})`);
    if (run % 2 === 0) {
      ours.push(await measure(`bench-virtual-${run}`, '', trace));
      base.push(await measure(`bench-plain-${run}`, '?virtual=0', trace));
    } else {
      base.push(await measure(`bench-plain-${run}`, '?virtual=0', trace));
      ours.push(await measure(`bench-virtual-${run}`, '', trace));
    }
  }
  const suite = benchSuite(
    '@codeagent/web',
    `${CARDS} cards, ${DELTAS.toLocaleString('en')} streamed deltas, Chromium ${context.browser()?.version() ?? ''}, ${RUNS} runs of each side`,
    'render',
  );
  const baselineName = 'the same page without virtualisation (?virtual=0)';
  const NO_LONG_TASK = { max: 50, on: 'value', note: 'no task over 50 ms' };
  const figure = (name, what, key, goal, per = () => 1) => {
    const values = ours.map((r) => r[key] / per(r));
    const refs = base.map((r) => r[key] / per(r));
    const worst = Math.max(...values);
    return suite.value({
      name,
      what,
      unit: 'ms',
      values,
      reference: median(refs),
      baselineName,
      ...(goal ? { goal } : {}),
      note: `runs: ${values.map((v) => v.toFixed(0)).join(', ')} ms (worst ${worst.toFixed(0)}); baseline runs: ${refs.map((v) => v.toFixed(0)).join(', ')} ms`,
    });
  };
  const phases = [
    ['render', 'first render', 'navigation to painted, then 500 ms settling'],
    ['scroll', 'scroll', `bottom to top, one screen a frame (${ours[0].scrollSteps} screens)`],
    ['stream', 'stream', `${DELTAS.toLocaleString('en')} deltas, send to done`],
  ];
  figure('first render', 'navigation to the first painted frame with cards', 'render');
  figure(
    'scroll per screen',
    'scrolling one screen a frame, bottom to top: time per screen',
    'scroll',
    null,
    (r) => r.scrollSteps,
  );
  figure('stream', `${DELTAS.toLocaleString('en')} streamed deltas: send to done`, 'streamMs');
  for (const [key, label, what] of phases) {
    figure(
      `${label}: longest task`,
      `the longest main-thread task (wall time), ${what}`,
      `${key}Task`,
      NO_LONG_TASK,
    );
    figure(
      `${label}: its CPU time`,
      `the CPU time the main thread spent in that longest task (its wall time minus waiting for a core)`,
      `${key}TaskCpu`,
      NO_LONG_TASK,
    );
    figure(
      `${label}: most CPU in one task`,
      `the most CPU time of any one main-thread task, ${what}`,
      `${key}Cpu`,
      NO_LONG_TASK,
    );
  }
  suite.note(
    `DOM rows: ${ours[0].domRows} virtualised vs ${base[0].domRows}; load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
  suite.finish();
} finally {
  await context.close();
  await host.close();
  await rm(profile, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
}
