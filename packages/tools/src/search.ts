import { stat } from 'node:fs/promises';
import path from 'node:path';
import { compileGlob, GlobSyntaxError } from '@codeagent/permission-gate';
import picomatch from 'picomatch';
import { ToolError } from './errors.js';
import { RegexMatcher } from './matcher.js';
import { walkFiles } from './walk.js';
import type { ResolvedPath, Workspace } from './workspace.js';

/** Arguments of the Glob tool. */
export interface GlobArgs {
  /** Glob pattern (`**` `*` `?` `[]` `{a,b}`), relative to `path`; a leading directory narrows the walk. */
  pattern: string;
  /** Directory to search (default: the session cwd). */
  path?: string | undefined;
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}

/** Output modes of the Grep tool. */
export type GrepOutputMode = 'content' | 'files_with_matches' | 'count';

/** Arguments of the Grep tool. */
export interface GrepArgs {
  /** JavaScript regular expression searched line by line. */
  pattern: string;
  /** File or directory to search (default: the session cwd). */
  path?: string | undefined;
  /** Only search files whose path matches this glob (a glob without `/` matches the file name). */
  glob?: string | undefined;
  /** `content` (default): matching lines; `files_with_matches`: file names; `count`: matches per file. */
  output_mode?: GrepOutputMode | undefined;
  /** Case-insensitive search. */
  ignore_case?: boolean | undefined;
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}

/**
 * Decides whether a search may read or list a file, given its absolute path (called with the lexical path and,
 * when it differs, the real path); `false` hides the file. Hosts pass the permission gate's read-path rules:
 * `(p) => gate.readRestriction(p) === null`. A filter that throws hides the file.
 */
export type ReadFilter = (absolutePath: string) => boolean;

/** True when `filter` lets a search read the file at both its lexical and real path. */
export function readAllowed(filter: ReadFilter | undefined, lexical: string, real: string): boolean {
  if (filter === undefined) return true;
  try {
    return filter(lexical) === true && (real === lexical || filter(real) === true);
  } catch {
    return false;
  }
}

const hiddenNote = (n: number): string =>
  n === 0 ? '' : `\n\n[${n} file${n === 1 ? '' : 's'} hidden by permission rules]`;

/** Limits shared by Glob and Grep. */
export interface SearchLimits {
  /** Most results listed (Glob paths, Grep matching lines or files; default 500). */
  maxResults?: number;
  /** Most files visited before the walk stops (default 50,000). */
  maxFiles?: number;
  /** Grep skips files larger than this (default 5 MiB). */
  maxFileBytes?: number;
  /** Grep cuts longer matching lines with a marker (default 500 characters). */
  maxLineLength?: number;
  /** Honour `.gitignore` files (default true). */
  gitignore?: boolean;
  /** Grep stops a pattern that spends longer than this on one batch of files (default 10,000 ms). */
  regexTimeoutMs?: number;
}

/** A table column, as the `table` artifact describes it. */
export interface TableColumn {
  /** Column name (a key of every row). */
  name: string;
  /** Column type: `string` or `number`. */
  type: 'string' | 'number';
}

/** A row of a search table: JSON scalars only. */
export type TableRow = Record<string, string | number>;

/** What Glob or Grep produced: the model value and the `table` artifact data. */
export interface SearchOutcome {
  /** The model value: one result per line plus notes. */
  value: string;
  /** Display path of the directory (or file) searched. */
  searchPath: string;
  /** Table rows for the artifact. */
  rows: TableRow[];
  /** Table columns, in order. */
  columns: TableColumn[];
  /** Number of results listed. */
  count: number;
  /** Whether a cap cut the results. */
  truncated: boolean;
}

interface Target {
  resolved: ResolvedPath;
  isFile: boolean;
}

async function searchTarget(workspace: Workspace, input: string | undefined, label: string): Promise<Target> {
  const resolved = await workspace.resolve(input === undefined || input === '' ? '.' : input, label);
  if (!resolved.exists) throw new ToolError('not-found', `Path not found: ${resolved.display}`);
  const info = await stat(resolved.real);
  return { resolved, isFile: info.isFile() };
}

/** Finds files by glob pattern inside the workspace (gitignore-aware), newest first. */
export async function globFiles(
  workspace: Workspace,
  args: GlobArgs,
  limits: SearchLimits = {},
  signal?: AbortSignal,
  filter?: ReadFilter,
): Promise<SearchOutcome> {
  const maxResults = limits.maxResults ?? 500;
  const maxFiles = limits.maxFiles ?? 50_000;
  if (typeof args.pattern !== 'string' || args.pattern.trim() === '') {
    throw new ToolError('invalid-input', 'pattern must be a non-empty glob');
  }
  const target = await searchTarget(workspace, args.path, 'path');
  if (target.isFile)
    throw new ToolError('not-a-directory', `${target.resolved.display} is a file, not a directory`);
  const scan = picomatch.scan(args.pattern);
  let baseDir = scan.base;
  let glob = scan.glob;
  if (!scan.isGlob) {
    baseDir = path.posix.dirname(scan.base);
    glob = path.posix.basename(scan.base);
  }
  const isMatch = compileSearchGlob(glob, 'pattern');
  const start =
    baseDir === '' || baseDir === '.'
      ? target.resolved
      : await workspace.resolve(path.resolve(target.resolved.absolute, baseDir), 'pattern');
  const columns: TableColumn[] = [
    { name: 'path', type: 'string' },
    { name: 'size', type: 'number' },
    { name: 'modified', type: 'string' },
  ];
  if (!start.exists) {
    return {
      value: `No files match ${args.pattern}`,
      searchPath: target.resolved.display,
      rows: [],
      columns,
      count: 0,
      truncated: false,
    };
  }
  const matches: Array<{ absolute: string; size: number; mtimeMs: number }> = [];
  let hidden = 0;
  let visited = 0;
  let truncated = false;
  for await (const entry of walkFiles({
    start: start.real,
    ignoreBase: workspace.rootOf(start.real) ?? start.real,
    gitignore: limits.gitignore ?? true,
    signal,
  })) {
    visited += 1;
    if (visited > maxFiles) {
      truncated = true;
      break;
    }
    if (!isMatch(entry.relative)) continue;
    const lexical = path.join(start.absolute, entry.relative);
    if (!readAllowed(filter, lexical, entry.absolute)) {
      hidden += 1;
      continue;
    }
    try {
      const info = await stat(entry.absolute);
      matches.push({
        absolute: lexical,
        size: info.size,
        mtimeMs: info.mtimeMs,
      });
    } catch {
      // Vanished between readdir and stat: skip it.
    }
  }
  matches.sort(
    (a, b) => b.mtimeMs - a.mtimeMs || (a.absolute < b.absolute ? -1 : a.absolute > b.absolute ? 1 : 0),
  );
  const total = matches.length;
  if (total > maxResults) truncated = true;
  const shown = matches.slice(0, maxResults);
  const rows: TableRow[] = shown.map((m) => ({
    path: workspace.display(m.absolute),
    size: m.size,
    modified: new Date(m.mtimeMs).toISOString(),
  }));
  let value = rows.length === 0 ? `No files match ${args.pattern}` : rows.map((r) => r.path).join('\n');
  if (total > maxResults)
    value += `\n\n[Showing ${maxResults} of ${total} files; narrow the pattern or path]`;
  else if (truncated) value += `\n\n[Stopped after visiting ${maxFiles} files; narrow the pattern or path]`;
  value += hiddenNote(hidden);
  return { value, searchPath: target.resolved.display, rows, columns, count: rows.length, truncated };
}

function compileRegex(pattern: string, ignoreCase: boolean): RegExp {
  if (typeof pattern !== 'string' || pattern === '')
    throw new ToolError('invalid-input', 'pattern must be a non-empty regular expression');
  const flags = ignoreCase ? 'i' : '';
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      const reason =
        error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : String(error);
      throw new ToolError('invalid-regex', `Invalid regular expression: ${reason}`);
    }
  }
}

interface FileHits {
  display: string;
  lines: Array<{ line: number; text: string }>;
}

/** Searches file contents by regular expression inside the workspace (gitignore-aware, capped). */
export async function grepFiles(
  workspace: Workspace,
  args: GrepArgs,
  limits: SearchLimits = {},
  signal?: AbortSignal,
  filter?: ReadFilter,
): Promise<SearchOutcome> {
  const maxResults = limits.maxResults ?? 500;
  const maxFiles = limits.maxFiles ?? 50_000;
  const maxFileBytes = limits.maxFileBytes ?? 5 * 1024 * 1024;
  const maxLineLength = limits.maxLineLength ?? 500;
  const mode: GrepOutputMode = args.output_mode ?? 'content';
  const regex = compileRegex(args.pattern, args.ignore_case === true);
  const target = await searchTarget(workspace, args.path, 'path');
  const globMatch =
    args.glob === undefined || args.glob === ''
      ? undefined
      : basenameAware(compileSearchGlob(args.glob, 'glob'), args.glob);
  const results: FileHits[] = [];
  let hidden = 0;
  let listed = 0;
  let truncated = false;
  let visited = 0;
  const accept = (hits: FileHits | undefined): boolean => {
    if (hits === undefined) return true;
    if (mode === 'content') {
      const room = maxResults - listed;
      if (hits.lines.length > room) {
        hits.lines = hits.lines.slice(0, room);
        truncated = true;
      }
      listed += hits.lines.length;
    } else {
      listed += 1;
    }
    results.push(hits);
    if (listed >= maxResults && mode !== 'count') {
      truncated = true;
      return false;
    }
    return true;
  };
  const perFile =
    mode === 'content' ? maxResults + 1 : mode === 'files_with_matches' ? 1 : Number.POSITIVE_INFINITY;
  const matcher = new RegexMatcher(regex, {
    timeoutMs: limits.regexTimeoutMs ?? 10_000,
    maxLineLength,
    maxFileBytes,
  });
  const batch: Array<{ display: string; path: string }> = [];
  // The worker reads and matches a batch; hits are accepted in walk order.
  const flush = async (): Promise<boolean> => {
    const displays = batch.map((b) => b.display);
    const files = batch.map((b) => ({ path: b.path, stopAfter: perFile }));
    batch.length = 0;
    const results = await matcher.match(files);
    for (const [i, hits] of results.entries()) {
      if (hits.length === 0) continue;
      const lines = hits.map((h) => ({
        line: h.line,
        text: h.more > 0 ? `${h.text}… [${h.more} more characters]` : h.text,
      }));
      if (!accept({ display: displays[i]!, lines })) return false;
    }
    return true;
  };
  try {
    if (target.isFile) {
      if (!readAllowed(filter, target.resolved.absolute, target.resolved.real)) {
        throw new ToolError(
          'permission-denied',
          `Permission rules hide ${target.resolved.display} from search`,
        );
      }
      batch.push({ display: target.resolved.display, path: target.resolved.real });
      await flush();
    } else {
      let go = true;
      for await (const entry of walkFiles({
        start: target.resolved.real,
        ignoreBase: workspace.rootOf(target.resolved.real) ?? target.resolved.real,
        gitignore: limits.gitignore ?? true,
        signal,
      })) {
        if (globMatch !== undefined && !globMatch(entry.relative)) continue;
        visited += 1;
        if (visited > maxFiles) {
          truncated = true;
          break;
        }
        const lexical = path.join(target.resolved.absolute, entry.relative);
        if (!readAllowed(filter, lexical, entry.absolute)) {
          hidden += 1;
          continue;
        }
        const display = workspace.display(lexical);
        batch.push({ display, path: entry.absolute });
        if (batch.length >= 64) {
          go = await flush();
          if (!go) break;
        }
      }
      if (go) await flush();
    }
  } finally {
    matcher.close();
  }
  if (results.length > 0 && mode !== 'count' && listed >= maxResults) truncated = true;
  let rows: TableRow[];
  let columns: TableColumn[];
  let lines: string[];
  switch (mode) {
    case 'content':
      columns = [
        { name: 'path', type: 'string' },
        { name: 'line', type: 'number' },
        { name: 'text', type: 'string' },
      ];
      rows = results.flatMap((r) => r.lines.map((l) => ({ path: r.display, line: l.line, text: l.text })));
      lines = rows.map((r) => `${r.path}:${r.line}:${r.text}`);
      break;
    case 'files_with_matches':
      columns = [{ name: 'path', type: 'string' }];
      rows = results.map((r) => ({ path: r.display }));
      lines = rows.map((r) => String(r.path));
      break;
    case 'count':
      columns = [
        { name: 'path', type: 'string' },
        { name: 'count', type: 'number' },
      ];
      rows = results.map((r) => ({ path: r.display, count: r.lines.length }));
      lines = rows.map((r) => `${r.path}:${r.count}`);
      break;
  }
  let value =
    lines.length === 0 ? `No matches for /${args.pattern}/ in ${target.resolved.display}` : lines.join('\n');
  if (truncated) {
    value +=
      visited > maxFiles
        ? `\n\n[Stopped after searching ${maxFiles} files; narrow the path or glob]`
        : `\n\n[Stopped at ${maxResults} results; narrow the pattern, path or glob]`;
  }
  value += hiddenNote(hidden);
  return { value, searchPath: target.resolved.display, rows, columns, count: rows.length, truncated };
}

/**
 * Compiles a model-written glob with permission-gate's matcher, which cannot backtrack catastrophically
 * (picomatch's regexes can freeze the process on a pattern with many `*a*a*a` wildcards); dotfiles match.
 */
function compileSearchGlob(pattern: string, field: string): (path: string) => boolean {
  try {
    const matcher = compileGlob(pattern, 'path');
    return (p) => matcher.test(p);
  } catch (error) {
    if (error instanceof GlobSyntaxError) throw new ToolError('invalid-input', `${field}: ${error.message}`);
    throw error;
  }
}

/** A glob without `/` matches a file's base name anywhere (like `--include`); one with `/` the relative path. */
function basenameAware(match: (path: string) => boolean, pattern: string): (path: string) => boolean {
  if (pattern.includes('/')) return match;
  return (p) => match(p.slice(p.lastIndexOf('/') + 1));
}
