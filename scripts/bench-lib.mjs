// The shared bench helper (ADR 0205). Every package's `pnpm bench` measures through it, so all print the same
// lines and write the same JSON: what is measured, ours beside the named baseline, the ratio ours/baseline (time
// over time: below 1 is faster), the spread of that ratio, the goal and whether it is met.
//
// How a comparison is sampled: ours and the baseline run in pairs, back to back, the order alternating every
// round, each sample a number of repetitions long enough to be measurable; the figure is the median of the
// per-pair ratios, which other load on a shared machine moves much less than either side's own times (a burst
// slows both halves of a pair). Rounds go on until the spread is under the target or the time budget is spent.
// Time is process CPU time (user + system) unless a comparison asks for the main thread's CPU time ('thread'),
// wall time (I/O) or 'returned' (each run times itself and returns milliseconds: work in a child process).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where every package's bench writes its JSON (the root summary reads it back). */
export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.join(ROOT, '.bench');

// A forced full collection (`gc()` under --expose-gc) also makes V8 drop the compiled code of what ran before, so
// the next sample recompiles it on the compiler threads: in agent-core that cost more CPU than the turn it preceded
// (x2.5 the time, spreads of ±40%). Samples therefore never force one unless a comparison asks (`collect: true`).
const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => undefined;

/** Quick mode: every comparison takes a few pairs only (figures to check that the benches run, not to report). */
export const QUICK = process.env.BENCH_QUICK === '1';

/** The median of a list of numbers (the mean of the two middle values for an even count). */
export function median(xs) {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The q-quantile (0..1) of a list, linear between order statistics. */
export function quantile(xs, q) {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/**
 * Relative spread of a sample: half the interquartile range over the median, so "±4%" means the middle half of
 * the samples lie within about 4% of the median.
 */
export function relativeSpread(xs) {
  const m = median(xs);
  return m === 0 ? 0 : (quantile(xs, 0.75) - quantile(xs, 0.25)) / 2 / Math.abs(m);
}

/** The machine a run happened on, printed with the figures and stored in the JSON. */
export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    load: os.loadavg().map((x) => Number(x.toFixed(2))),
  };
}

/** CPU time of the calling (main) thread in ms from Linux's schedstat, or `null` where that is not readable. */
function threadClock() {
  try {
    const read = () => Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]) / 1e6;
    return Number.isFinite(read()) ? read : null;
  } catch {
    return null;
  }
}

function clock(kind) {
  if (kind === 'returned') return null;
  if (kind === 'wall') return () => performance.now();
  if (kind === 'thread') {
    const t = threadClock();
    if (t) return t;
  }
  return () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
}

/** Formats a duration in milliseconds with a unit that keeps three significant figures. */
export function formatTime(msValue) {
  if (!Number.isFinite(msValue)) return String(msValue);
  const abs = Math.abs(msValue);
  if (abs >= 1000) return `${(msValue / 1000).toFixed(2)} s`;
  if (abs >= 100) return `${msValue.toFixed(0)} ms`;
  if (abs >= 1) return `${msValue.toFixed(2)} ms`;
  if (abs >= 0.001) return `${(msValue * 1000).toFixed(2)} µs`;
  return `${(msValue * 1e6).toFixed(1)} ns`;
}

async function sample(fn, repeat, now, collect = false) {
  if (collect) gc();
  if (now === null) {
    // 'returned': each run reports its own time in ms (work done in a child process, timed inside it).
    let total = 0;
    for (let i = 0; i < repeat; i++) total += Number(await fn());
    return total / repeat;
  }
  const t0 = now();
  for (let i = 0; i < repeat; i++) {
    const r = fn();
    if (r !== undefined && typeof r.then === 'function') await r;
  }
  return (now() - t0) / repeat;
}

/** Picks a repetition count so one sample of `fn` takes at least `minSampleMs`. */
async function calibrate(fn, minSampleMs, now) {
  let repeat = 1;
  for (;;) {
    const t = (await sample(fn, repeat, now, false)) * repeat;
    if (t >= minSampleMs || repeat >= 1 << 20) return repeat;
    repeat = t <= 0 ? repeat * 10 : Math.min(repeat * 10, Math.ceil((repeat * minSampleMs * 1.2) / t));
  }
}

/** Whether `ratio` meets a goal `{ max }` (ratio at most) or `{ min }` (ratio at least); `null` without a goal. */
function meets(goal, value) {
  if (!goal) return null;
  if (goal.max !== undefined && value > goal.max) return false;
  if (goal.min !== undefined && value < goal.min) return false;
  return true;
}

function goalText(goal, prefix = 'x') {
  if (!goal) return 'no goal';
  const parts = [];
  if (goal.max !== undefined) parts.push(`<= ${prefix}${goal.max}`);
  if (goal.min !== undefined) parts.push(`>= ${prefix}${goal.min}`);
  return `goal ${parts.join(' and ')}${goal.note ? ` (${goal.note})` : ''}`;
}

/**
 * A package's bench run. `suite.compare()` measures ours against a baseline, `suite.value()` records a figure that
 * has no runnable baseline (a size, a heap ratio) with what it is compared to; `suite.finish()` writes the JSON.
 */
export function benchSuite(pkg, description, part) {
  const results = [];
  const started = new Date();
  const host = machine();
  const print = (line) => process.stdout.write(`${line}\n`);
  print(`${pkg} bench${part ? ` (${part})` : ''}: ${description}`);
  print(
    `  machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}, load ${host.load.join(' ')}; ratio = ours / baseline (below x1 is faster), spread = half the IQR of the per-pair ratios over their median`,
  );

  return {
    /**
     * Measures `ours` against `baseline` in interleaved pairs. Options: name, what, baselineName, goal
     * (`{max, min, note}` on the ratio), clock ('cpu' | 'thread' | 'wall' | 'returned'), minRounds, maxRounds,
     * targetSpread, budgetMs, minSampleMs, repeat (fixed repetitions instead of calibrating), warmup (runs of each side
     * first), collect (force a full collection before each pair: only for work whose garbage would otherwise land on
     * the other side; it also discards compiled code, see above).
     */
    async compare(opts) {
      const now = clock(opts.clock ?? 'cpu');
      // Quick mode (`pnpm bench --quick`, BENCH_QUICK=1): a few pairs per figure, to check that every bench runs.
      const minRounds = QUICK ? Math.min(opts.minRounds ?? 15, 5) : (opts.minRounds ?? 15);
      const maxRounds = QUICK ? Math.min(opts.maxRounds ?? 201, 9) : (opts.maxRounds ?? 201);
      const target = opts.targetSpread ?? 0.05;
      const budget = Math.min(opts.budgetMs ?? 20_000, QUICK ? 3_000 : Number.POSITIVE_INFINITY);
      const collect = opts.collect === true;
      for (let i = 0; i < (QUICK ? Math.min(opts.warmup ?? 2, 2) : (opts.warmup ?? 2)); i++) {
        await sample(opts.ours, 1, now, collect);
        await sample(opts.baseline, 1, now, collect);
      }
      // Each side gets its own repetition count (a sample of either lasts about minSampleMs); times are per run.
      const repeatOurs = opts.repeat ?? (await calibrate(opts.ours, opts.minSampleMs ?? 20, now));
      const repeatBase = opts.repeat ?? (await calibrate(opts.baseline, opts.minSampleMs ?? 20, now));
      const repeat = repeatOurs;
      const ours = [];
      const base = [];
      const ratios = [];
      const t0 = performance.now();
      for (let r = 0; r < maxRounds; r++) {
        let a;
        let b;
        // The order alternates, so neither side always pays for the other's garbage (with `collect`, one forced
        // collection per pair).
        if (r % 2 === 0) {
          a = await sample(opts.ours, repeatOurs, now, collect);
          b = await sample(opts.baseline, repeatBase, now, false);
        } else {
          b = await sample(opts.baseline, repeatBase, now, collect);
          a = await sample(opts.ours, repeatOurs, now, false);
        }
        ours.push(a);
        base.push(b);
        ratios.push(b > 0 ? a / b : Number.NaN);
        const n = r + 1;
        if (n >= minRounds && n % 2 === 0) {
          if (relativeSpread(ratios) <= target) break;
          if (performance.now() - t0 > budget) break;
        }
      }
      const ratio = median(ratios);
      const spread = relativeSpread(ratios);
      const result = {
        kind: 'compare',
        name: opts.name,
        what: opts.what,
        baseline: opts.baselineName,
        clock: opts.clock ?? 'cpu',
        ours: median(ours),
        base: median(base),
        ratio,
        spread,
        ratioRange: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
        samples: ratios.length,
        repeat,
        repeatBaseline: repeatBase,
        seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
        goal: opts.goal ?? null,
        met: meets(opts.goal, opts.goal?.on === 'value' ? median(ours) : ratio),
        ...(opts.note ? { note: opts.note } : {}),
      };
      results.push(result);
      print(formatCompare(result));
      return result;
    },

    /**
     * Records a measured figure that is not a timed pair: `value` beside `reference` (both in `unit`), the ratio
     * value/reference, and the goal on that ratio (or on the value itself with `goal.on: 'value'`).
     */
    value(opts) {
      if (Array.isArray(opts.values)) {
        const xs = opts.values;
        return this.value({
          ...opts,
          values: undefined,
          value: median(xs),
          spread: relativeSpread(xs),
          samples: xs.length,
        });
      }
      const ratio = opts.reference === undefined ? null : opts.value / opts.reference;
      const judged = opts.goal?.on === 'value' ? opts.value : ratio;
      const result = {
        kind: 'value',
        name: opts.name,
        what: opts.what,
        baseline: opts.baselineName ?? null,
        unit: opts.unit,
        value: opts.value,
        reference: opts.reference ?? null,
        ratio,
        spread: opts.spread ?? null,
        samples: opts.samples ?? 1,
        goal: opts.goal ?? null,
        met: judged === null ? null : meets(opts.goal, judged),
        ...(opts.note ? { note: opts.note } : {}),
      };
      results.push(result);
      print(formatValue(result));
      return result;
    },

    /**
     * Records one comparison measured in several fresh processes (`runs`: each process's `compare()` result of the
     * same row): the figure is the run with the median ratio, and the note lists every run's ratio. One process's
     * compiled code and heap layout can move a row by more than its own spread; the median of fresh processes does
     * not depend on one of them.
     */
    combine(runs, note) {
      const sorted = [...runs].sort((a, b) => a.ratio - b.ratio);
      const mid = sorted[(sorted.length - 1) >> 1];
      const ratios = runs.map((r) => `x${r.ratio.toFixed(3)}`).join(', ');
      const result = {
        ...mid,
        samples: runs.reduce((n, r) => n + r.samples, 0),
        seconds: Number(runs.reduce((n, r) => n + r.seconds, 0).toFixed(1)),
        runs: runs.map((r) => ({ ratio: r.ratio, spread: r.spread, samples: r.samples })),
        met: meets(mid.goal, mid.goal?.on === 'value' ? mid.ours : mid.ratio),
        note: `${runs.length} fresh processes, ratios ${ratios}: the median run is the figure${note ? `; ${note}` : ''}`,
      };
      results.push(result);
      print(formatCompare(result));
      return result;
    },

    /** Prints a free line (context a reader needs, e.g. the input sizes). */
    note(line) {
      print(`  ${line}`);
    },

    /** Writes `.bench/<package>.json` (or BENCH_RESULTS_DIR) and returns the results. */
    finish() {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const base = `${pkg.replace(/^@codeagent\//, '')}${part ? `.${part}` : ''}`;
      const file = path.join(RESULTS_DIR, `${base.replace(/[^\w.-]+/g, '_')}.json`);
      const doc = {
        package: pkg,
        ...(part ? { part } : {}),
        description,
        ...(QUICK ? { quick: true } : {}),
        date: started.toISOString(),
        machine: { ...host, loadAtEnd: os.loadavg().map((x) => Number(x.toFixed(2))) },
        results,
      };
      writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
      const missed = results.filter((r) => r.met === false).length;
      const noisy = results.filter((r) => r.spread !== null && r.spread > 0.1).length;
      print(
        `  ${results.length} figures, ${missed} goals missed, ${noisy} with a spread over 10%${noisy > 0 ? ' (other load on the machine; the per-pair median is still the figure)' : ''}; JSON: ${path.relative(process.cwd(), file)}`,
      );
      return doc;
    },
  };
}

const verdict = (met) => (met === null ? '' : met ? '  [goal met]' : '  [goal MISSED]');

function formatCompare(r) {
  const clockName =
    r.clock === 'wall'
      ? 'wall'
      : r.clock === 'returned'
        ? 'self-timed'
        : r.clock === 'thread'
          ? 'main-thread CPU'
          : 'CPU';
  const noisy = r.spread > 0.1 ? ' (over 10%: noisy)' : '';
  return [
    `  ${r.name}: ${r.what}`,
    `    ours ${formatTime(r.ours)}  baseline ${formatTime(r.base)} (${r.baseline})  ratio x${r.ratio.toFixed(3)}  spread ±${(r.spread * 100).toFixed(1)}%${noisy}  ${r.samples} pairs (${r.repeat}${r.repeatBaseline !== r.repeat ? ` / ${r.repeatBaseline}` : ''} run${r.repeat === 1 && r.repeatBaseline === 1 ? '' : 's'} a sample, ${r.seconds} s), ${clockName} time, median per run  ${r.goal?.on === 'value' ? goalText(r.goal, '') : goalText(r.goal)}${verdict(r.met)}`,
    ...(r.note ? [`    ${r.note}`] : []),
  ].join('\n');
}

function formatNumber(x, unit) {
  if (unit === 'ms') return formatTime(x);
  const s = Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3);
  return unit ? `${s} ${unit}` : s;
}

function formatValue(r) {
  const ref =
    r.reference === null
      ? ''
      : `  baseline ${formatNumber(r.reference, r.unit)}${r.baseline ? ` (${r.baseline})` : ''}  ratio x${r.ratio.toFixed(3)}`;
  const spread = r.spread === null ? '' : `  spread ±${(r.spread * 100).toFixed(1)}%`;
  const samples = r.samples > 1 ? `  ${r.samples} samples` : '';
  const goal = r.goal?.on === 'value' ? goalText(r.goal, '') : goalText(r.goal);
  return [
    `  ${r.name}: ${r.what}`,
    `    ours ${formatNumber(r.value, r.unit)}${ref}${spread}${samples}  ${goal}${verdict(r.met)}`,
    ...(r.note ? [`    ${r.note}`] : []),
  ].join('\n');
}

/**
 * For a bench that measures in its own way (a browser, child processes): records its figures in the shared format
 * (printed like `suite.value()` and written to `.bench/` for the root summary). Each row: `name`, `what`, `unit`,
 * `ours` (a number or the samples, whose median is the figure), `baseline` (likewise) with `baselineName`, and an
 * optional `goal` (`{max}` on the ratio, or `{max, on: 'value'}` on ours) and `note`.
 */
export function recordBench(pkg, description, rows, part) {
  const suite = benchSuite(pkg, description, part);
  const figure = (x) => (Array.isArray(x) ? median(x) : x);
  for (const row of rows) {
    suite.value({
      name: row.name,
      what: row.what,
      unit: row.unit,
      ...(Array.isArray(row.ours) ? { values: row.ours } : { value: row.ours }),
      ...(row.baseline === undefined
        ? {}
        : { reference: figure(row.baseline), baselineName: row.baselineName }),
      ...(row.goal ? { goal: row.goal } : {}),
      ...(row.note ? { note: row.note } : {}),
    });
  }
  return suite.finish();
}

/** Reads every JSON a bench run wrote (for the root summary). */
export function readResults(dir = RESULTS_DIR) {
  let names;
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().map((n) => JSON.parse(readFileSync(path.join(dir, n), 'utf8')));
}
