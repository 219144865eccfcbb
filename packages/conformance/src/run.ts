import { jsonDifference } from './compare.js';
import { type SuiteName, suites, type TextExpectation, type Vector } from './vectors.js';

/** What an implementation answered for one vector: a JSON result, or an error with its name and code. */
export type Answer =
  | { readonly ok: true; readonly result: unknown }
  | {
      readonly ok: false;
      readonly error: { readonly name: string; readonly code?: string; readonly message?: string };
    };

/** Something under test: a name, the operations it implements, and a way to call one. */
export interface Implementation {
  /** Shown in reports. */
  readonly name: string;
  /** The operations it implements; vectors of other operations are reported as not applicable. */
  readonly ops: readonly string[];
  /** Runs one operation on JSON arguments. */
  call(op: string, args: readonly unknown[]): Promise<Answer>;
}

/** How one vector went. `unexpected-pass` (a baseline entry that passes) fails the run, so a baseline cannot rot. */
export type Outcome = 'pass' | 'fail' | 'expected-failure' | 'unexpected-pass' | 'not-applicable';

/** The result of one vector. */
export interface VectorResult {
  /** The vector's id. */
  readonly id: string;
  /** The rule it checks and where it comes from. */
  readonly rule: string;
  /** The operation. */
  readonly op: string;
  /** How it went. */
  readonly outcome: Outcome;
  /** Why it failed (or passed against the baseline): what differed, where. */
  readonly message?: string;
  /** Milliseconds the implementation took. */
  readonly ms: number;
}

/** The report of one run. */
export interface ConformanceReport {
  /** The suite run (`artifact`, `terminal-renderer`, ...). */
  readonly suite: string;
  /** The implementation's name. */
  readonly implementation: string;
  /** One result per vector, in suite order. */
  readonly results: readonly VectorResult[];
  /** Baseline ids that name no vector of the suite (a rotten baseline). */
  readonly unknownBaselineIds: readonly string[];
  /** How many vectors had each outcome. */
  readonly counts: Readonly<Record<Outcome, number>>;
  /** True when nothing failed, no baseline entry passed and the baseline names only real vectors. */
  readonly ok: boolean;
}

/** Options of {@link runSuite}. */
export interface RunOptions {
  /** The suite (default `artifact`). */
  readonly suite?: SuiteName;
  /** Vector ids expected to fail (see `parseBaseline`). */
  readonly baseline?: ReadonlySet<string>;
  /** Only vectors whose id starts with one of these prefixes. */
  readonly only?: readonly string[];
}

/** Judges one answer against a vector; `null` means it conforms. */
export function judge(vector: Vector, answer: Answer): string | null {
  if (vector.throws) {
    if (answer.ok) return `expected ${vector.throws.name} (${vector.throws.code}), got a result`;
    if (answer.error.name !== vector.throws.name || answer.error.code !== vector.throws.code) {
      return `expected ${vector.throws.name} (${vector.throws.code}), got ${answer.error.name} (${answer.error.code ?? 'no code'})`;
    }
    return null;
  }
  if (!answer.ok) {
    const why = answer.error.message ? `: ${answer.error.message}` : '';
    return `expected a result, got ${answer.error.name} (${answer.error.code ?? 'no code'})${why}`;
  }
  return vector.text
    ? textDifference(answer.result, vector.text)
    : jsonDifference(answer.result, vector.expected);
}

/** Judges a text result: no ESC when plain, each expected string in order, no forbidden one; `null` when it conforms. */
function textDifference(result: unknown, want: TextExpectation): string | null {
  if (typeof result !== 'string') return `expected text, got ${typeof result}`;
  const esc = result.indexOf('\u001b');
  if (want.plain && esc !== -1)
    return `colour is off, but the text holds an escape sequence at offset ${esc}: ${JSON.stringify(result.slice(esc, esc + 12))}`;
  let from = 0;
  for (const s of want.contains) {
    const at = result.indexOf(s, from);
    if (at === -1) {
      const anywhere = result.includes(s) ? ' (it appears earlier, out of order)' : '';
      return `the text does not show ${JSON.stringify(s)}${anywhere}: ${JSON.stringify(result.slice(0, 300))}`;
    }
    from = at + s.length;
  }
  for (const s of want.absent)
    if (result.includes(s)) return `the text shows ${JSON.stringify(s)}, which must not be shown`;
  return null;
}

/** The result of one case from its problem (`null`: it conforms) and the baseline; shared by every suite's runner. */
export function caseResult(
  c: { readonly id: string; readonly rule: string; readonly op: string },
  problem: string | null,
  baseline: ReadonlySet<string>,
  ms: number,
): VectorResult {
  const expectedToFail = baseline.has(c.id);
  const outcome: Outcome =
    problem === null
      ? expectedToFail
        ? 'unexpected-pass'
        : 'pass'
      : expectedToFail
        ? 'expected-failure'
        : 'fail';
  const message =
    outcome === 'unexpected-pass'
      ? 'passes, but the baseline expects it to fail: remove it from the baseline'
      : problem;
  return { id: c.id, rule: c.rule, op: c.op, outcome, ...(message ? { message } : {}), ms };
}

/** Counts the outcomes and checks the baseline against every id of the suite; shared by every suite's runner. */
export function buildReport(
  suite: string,
  implementation: string,
  results: readonly VectorResult[],
  allIds: Iterable<string>,
  baseline: ReadonlySet<string>,
): ConformanceReport {
  const ids = new Set(allIds);
  const unknownBaselineIds = [...baseline].filter((id) => !ids.has(id));
  const counts: Record<Outcome, number> = {
    pass: 0,
    fail: 0,
    'expected-failure': 0,
    'unexpected-pass': 0,
    'not-applicable': 0,
  };
  for (const r of results) counts[r.outcome]++;
  return {
    suite,
    implementation,
    results,
    unknownBaselineIds,
    counts,
    ok: counts.fail === 0 && counts['unexpected-pass'] === 0 && unknownBaselineIds.length === 0,
  };
}

/** Runs a suite's vectors against an implementation, one at a time, and reports every vector. */
export async function runSuite(impl: Implementation, options: RunOptions = {}): Promise<ConformanceReport> {
  const suite = options.suite ?? 'artifact';
  const baseline = options.baseline ?? new Set<string>();
  const vectors = suites[suite].filter((v) => !options.only || options.only.some((p) => v.id.startsWith(p)));
  const ops = new Set(impl.ops);
  const results: VectorResult[] = [];
  for (const v of vectors) {
    if (!ops.has(v.op)) {
      results.push({
        id: v.id,
        rule: v.rule,
        op: v.op,
        outcome: 'not-applicable',
        message: `${impl.name} does not implement ${v.op}`,
        ms: 0,
      });
      continue;
    }
    const started = performance.now();
    let answer: Answer;
    try {
      answer = await impl.call(v.op, v.args);
    } catch (error) {
      answer = {
        ok: false,
        error: { name: 'HostError', message: error instanceof Error ? error.message : String(error) },
      };
    }
    const ms = performance.now() - started;
    results.push(caseResult(v, judge(v, answer), baseline, ms));
  }
  return buildReport(
    suite,
    impl.name,
    results,
    suites[suite].map((v) => v.id),
    baseline,
  );
}

/**
 * An in-process implementation from plain functions: a thrown error becomes an error answer (its `name` and `code`),
 * and a result goes through a JSON round trip, as it would on the wire.
 */
export function inProcess(
  name: string,
  functions: Readonly<Record<string, (...args: never[]) => unknown>>,
): Implementation {
  return {
    name,
    ops: Object.keys(functions),
    async call(op, args) {
      const fn = functions[op] as ((...a: unknown[]) => unknown) | undefined;
      if (!fn) return { ok: false, error: { name: 'Unsupported', message: `no ${op}` } };
      try {
        const result = await fn(...args);
        return { ok: true, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) };
      } catch (error) {
        const e = error as { name?: unknown; code?: unknown; message?: unknown };
        return {
          ok: false,
          error: {
            // The name in the `instanceof` sense, as the vectors spell it: a TypeError subclass is a TypeError.
            name: error instanceof TypeError ? 'TypeError' : typeof e?.name === 'string' ? e.name : 'Error',
            ...(typeof e?.code === 'string' ? { code: e.code } : {}),
            ...(typeof e?.message === 'string' ? { message: e.message } : {}),
          },
        };
      }
    },
  };
}
