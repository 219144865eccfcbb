import { type ConfigIssue, describeValue } from './errors.js';
import { compileGlob, type GlobMatcher, GlobSyntaxError } from './glob.js';
import { type NormalisedPath, normalisePath } from './paths.js';

/**
 * The agent's own configuration, protected by default: settings, skills, MCP config and git internals at any
 * depth under the working directory. Each entry also covers everything under it. Matching ignores case.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze([
  '**/.codeagent',
  '**/.claude',
  '**/.agents',
  '**/.gemini',
  '**/.codex',
  '**/.btw',
  '**/.mcp.json',
  '**/.git',
  '**/.gitmodules',
]);

/** Why a path counts as protected. */
export interface ProtectedMatch {
  /** The protected-path entry that matched, or `(unresolvable)` for a path the gate cannot place. */
  readonly entry: string;
}

interface CompiledEntry {
  readonly entry: string;
  /** For `**\/name` entries: the lower-cased segment name, matched by a segment lookup instead of globs. */
  readonly segment: string | undefined;
  readonly matchers: readonly GlobMatcher[];
}

/** `**\/name` with a plain name: "some segment of the path is `name`". */
const ANY_DEPTH_NAME = /^\*\*\/([^/*?[\]{}\\]+)$/;

/** Compiled protected-path entries (defaults plus the host's own), matched case-insensitively. */
export class ProtectedPaths {
  private readonly entries: readonly CompiledEntry[];
  private readonly segments: ReadonlyMap<string, string>;
  private readonly globs: readonly CompiledEntry[];
  private readonly hasAbsolute: boolean;

  /** Compiles the defaults and `extra`; problems go to `issues` under `protectedPaths[i]`. */
  constructor(extra: unknown, issues: ConfigIssue[]) {
    const all: CompiledEntry[] = DEFAULT_PROTECTED_PATHS.map((e) => compileEntry(e));
    if (extra !== undefined) {
      if (!Array.isArray(extra)) {
        issues.push({
          path: 'protectedPaths',
          message: `expected an array of paths or globs, got ${describeValue(extra)}`,
        });
      } else {
        extra.forEach((raw: unknown, i: number) => {
          if (typeof raw !== 'string' || raw.trim() === '' || raw.includes('\u0000')) {
            issues.push({
              path: `protectedPaths[${i}]`,
              message: `expected a non-empty path or glob, got ${describeValue(raw)}`,
            });
            return;
          }
          try {
            all.push(compileEntry(raw.trim()));
          } catch (e) {
            if (!(e instanceof GlobSyntaxError)) throw e;
            issues.push({ path: `protectedPaths[${i}]`, message: e.message });
          }
        });
      }
    }
    this.entries = all;
    const segments = new Map<string, string>();
    for (const e of all)
      if (e.segment !== undefined && !segments.has(e.segment)) segments.set(e.segment, e.entry);
    this.segments = segments;
    this.globs = all.filter((e) => e.segment === undefined);
    this.hasAbsolute = all.some((e) => normalisePath(e.entry).absolute);
  }

  /** The entries in force, defaults first. */
  list(): readonly string[] {
    return this.entries.map((e) => e.entry);
  }

  /**
   * The entry protecting `raw` (a path argument as the model wrote it), or `undefined`. A path the gate cannot
   * place (a NUL byte, a relative path climbing out of an unknown working directory) counts as protected.
   */
  match(raw: string, cwd: NormalisedPath | undefined): ProtectedMatch | undefined {
    if (raw.includes('\u0000')) return { entry: '(unresolvable)' };
    const forms = pathForms(raw, cwd);
    // Without a cwd, `../x` can only be placed against the relative (`**/`) entries; absolute ones need a cwd.
    if (forms === undefined && this.hasAbsolute) return { entry: '(unresolvable)' };
    if (forms === undefined) return this.matchForms([normalisePath(raw).path.toLowerCase()]);
    return this.matchForms(forms);
  }

  private matchForms(forms: readonly string[]): ProtectedMatch | undefined {
    // Any-depth names are a segment lookup (cheap); the rest are globs.
    for (const f of forms) {
      for (const seg of f.split('/')) {
        const entry = this.segments.get(seg);
        if (entry !== undefined) return { entry };
      }
    }
    for (const e of this.globs) {
      if (e.matchers.some((m) => forms.some((f) => m.test(f)))) return { entry: e.entry };
    }
    return undefined;
  }
}

function compileEntry(entry: string): CompiledEntry {
  const base = normalisePath(entry).path.toLowerCase();
  const trimmed = base.endsWith('/**') ? base.slice(0, -3) : base;
  const matchers = [
    compileGlob(trimmed, 'path'),
    compileGlob(`${trimmed === '/' ? '' : trimmed}/**`, 'path'),
  ];
  return { entry, segment: ANY_DEPTH_NAME.exec(trimmed)?.[1], matchers };
}

/** Lower-cased, normalised forms of a path: as written, cwd-relative and absolute, and their Windows aliases. */
function pathForms(raw: string, cwd: NormalisedPath | undefined): string[] | undefined {
  const n = normalisePath(raw);
  const out = new Set<string>([n.path.toLowerCase()]);
  if (n.absolute) {
    if (cwd && n.path.toLowerCase().startsWith(`${cwd.path.toLowerCase().replace(/\/$/, '')}/`)) {
      out.add(n.path.slice(cwd.path.replace(/\/$/, '').length + 1).toLowerCase());
    }
  } else if (cwd) {
    const abs = normalisePath(`${cwd.path}/${n.path}`);
    out.add(abs.path.toLowerCase());
  } else if (n.escapes) {
    return undefined;
  }
  // Names Windows treats as the same file: trailing dots and spaces dropped, `name::$DATA` streams.
  for (const f of [...out]) {
    const alias = f
      .split('/')
      .map((seg) => (seg === '.' || seg === '..' ? seg : seg.replace(/:.*$/, '').replace(/[. ]+$/, '')))
      .join('/');
    out.add(alias);
  }
  return [...out];
}
