// Types of scripts/bench-lib.mjs for the TypeScript benches (see that file for what each does).

/** A goal on a ratio (or on the value itself for `value()` with `on: 'value'`). */
export interface BenchGoal {
  readonly max?: number;
  readonly min?: number;
  readonly note?: string;
  readonly on?: 'ratio' | 'value';
}

export interface CompareOptions {
  readonly name: string;
  readonly what: string;
  readonly baselineName: string;
  readonly ours: () => unknown;
  readonly baseline: () => unknown;
  readonly goal?: BenchGoal;
  /** `cpu`: process CPU (default); `thread`: the main thread's CPU (Linux; else process CPU); `wall`; `returned`. */
  readonly clock?: 'cpu' | 'thread' | 'wall' | 'returned';
  readonly minRounds?: number;
  readonly maxRounds?: number;
  readonly targetSpread?: number;
  readonly budgetMs?: number;
  readonly minSampleMs?: number;
  readonly repeat?: number;
  readonly warmup?: number;
  /** Force a full collection before each pair (needs --expose-gc; also discards compiled code). Default false. */
  readonly collect?: boolean;
  readonly note?: string;
}

export interface CompareResult {
  readonly kind: 'compare';
  readonly name: string;
  readonly what: string;
  readonly baseline: string;
  readonly clock: 'cpu' | 'thread' | 'wall' | 'returned';
  readonly ours: number;
  readonly base: number;
  readonly ratio: number;
  readonly spread: number;
  readonly ratioRange: readonly [number, number];
  readonly samples: number;
  readonly repeat: number;
  /** Runs per sample of the baseline. */
  readonly repeatBaseline: number;
  /** Seconds the sampling took (calibration excluded). */
  readonly seconds: number;
  readonly goal: BenchGoal | null;
  readonly met: boolean | null;
  readonly note?: string;
}

export interface ValueOptions {
  readonly name: string;
  readonly what: string;
  readonly unit: string;
  /** The figure; or give `values` (samples: the median is the figure, the spread is computed). */
  readonly value?: number;
  readonly values?: readonly number[];
  readonly reference?: number;
  readonly baselineName?: string;
  readonly spread?: number;
  readonly samples?: number;
  readonly goal?: BenchGoal;
  readonly note?: string;
}

export interface ValueResult {
  readonly kind: 'value';
  readonly name: string;
  readonly what: string;
  readonly baseline: string | null;
  readonly unit: string;
  readonly value: number;
  readonly reference: number | null;
  readonly ratio: number | null;
  readonly spread: number | null;
  readonly samples: number;
  readonly goal: BenchGoal | null;
  readonly met: boolean | null;
  readonly note?: string;
}

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly platform: string;
  readonly load: readonly number[];
}

export interface BenchDoc {
  readonly package: string;
  readonly part?: string;
  readonly description: string;
  readonly date: string;
  readonly machine: Machine & { readonly loadAtEnd: readonly number[] };
  readonly results: readonly (CompareResult | ValueResult)[];
}

export interface BenchSuite {
  compare(opts: CompareOptions): Promise<CompareResult>;
  value(opts: ValueOptions): ValueResult;
  /** One row measured in several fresh processes: the run with the median ratio is the figure. */
  combine(runs: readonly CompareResult[], note?: string): CompareResult;
  note(line: string): void;
  finish(): BenchDoc;
}

export const RESULTS_DIR: string;
/** `part` names one of several bench files of a package (its own JSON file). */
export function benchSuite(pkg: string, description: string, part?: string): BenchSuite;
export function median(xs: readonly number[]): number;
export function quantile(xs: readonly number[], q: number): number;
export function relativeSpread(xs: readonly number[]): number;
export function machine(): Machine;
export function formatTime(ms: number): string;
export function readResults(dir?: string): BenchDoc[];

/** True under `pnpm bench --quick` (BENCH_QUICK=1): comparisons take a few pairs only. */
export declare const QUICK: boolean;

/** One figure of a bench that measures in its own way (see {@link recordBench}). */
export interface RecordedRow {
  readonly name: string;
  readonly what: string;
  readonly unit: string;
  /** The figure, or its samples (the median is the figure and the spread is computed). */
  readonly ours: number | readonly number[];
  /** The baseline's figure or samples (median), if there is one. */
  readonly baseline?: number | readonly number[];
  readonly baselineName?: string;
  readonly goal?: BenchGoal;
  readonly note?: string;
}

/** Records figures measured outside `compare()` in the shared format and writes `.bench/<package>[.<part>].json`. */
export declare function recordBench(
  pkg: string,
  description: string,
  rows: readonly RecordedRow[],
  part?: string,
): unknown;
