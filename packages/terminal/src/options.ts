/** Environment variables the colour decision reads (a subset of `process.env`). */
export type ColorEnv = Readonly<Record<string, string | undefined>>;

/** Options shared by every renderer: how to decide colour and how wide the frame is. */
export interface TerminalRenderOptions {
  /** `true`/`false` force colour on/off; `'auto'` (default) applies the rules of {@link resolveColor}. */
  readonly color?: boolean | 'auto';
  /** Frame width in columns (default: the output's `columns`, else 80); clamped to 8..1000. */
  readonly width?: number;
  /** Environment to read `NO_COLOR` / `FORCE_COLOR` from (default: the process environment). */
  readonly env?: ColorEnv;
  /** Whether the output is a terminal (default: `process.stdout.isTTY`). */
  readonly isTTY?: boolean;
  /** Maximum table rows shown before a "more rows" footer (default 50). */
  readonly maxTableRows?: number;
}

/** Fully resolved render settings. */
export interface ResolvedRenderOptions {
  /** Whether SGR colour is emitted at all. */
  readonly color: boolean;
  /** Frame width in columns. */
  readonly width: number;
  /** Maximum table rows shown. */
  readonly maxTableRows: number;
}

interface ProcessLike {
  env?: ColorEnv;
  stdout?: { isTTY?: boolean; columns?: number };
}

function hostProcess(): ProcessLike | undefined {
  return (globalThis as { process?: ProcessLike }).process;
}

/**
 * Decides colour: an explicit boolean wins; otherwise `NO_COLOR` set and non-empty -> off; else
 * `FORCE_COLOR` set (and not `0`/`false`) -> on, `FORCE_COLOR=0`/`false` -> off; else on only for a TTY.
 */
export function resolveColor(options: TerminalRenderOptions = {}): boolean {
  if (typeof options.color === 'boolean') return options.color;
  const env = options.env ?? hostProcess()?.env ?? {};
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  return options.isTTY ?? hostProcess()?.stdout?.isTTY === true;
}

/** Resolves colour, width and limits from user options and the host process. */
export function resolveRenderOptions(options: TerminalRenderOptions = {}): ResolvedRenderOptions {
  const raw = options.width ?? hostProcess()?.stdout?.columns ?? 80;
  const width = Number.isFinite(raw) ? Math.min(1000, Math.max(8, Math.floor(raw))) : 80;
  const rows = options.maxTableRows ?? 50;
  const maxTableRows = Number.isFinite(rows) ? Math.max(1, Math.floor(rows)) : 50;
  return { color: resolveColor(options), width, maxTableRows };
}
