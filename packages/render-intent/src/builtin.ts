import { isRecord } from '@codeagent/artifact-schema/internal';
import { computeHunkDiffs } from './diff.js';
import { displayPath, resolvePath } from './path.js';
import type { PresentResultInput, ToolPresentation } from './presenter.js';
import { terminalFallbackText } from './terminal.js';
import type { ContentBlock, FileDiff, ToolCallView, ToolResultView } from './types.js';

// The argument shapes of the five presented built-in tools, written once: `@codeagent/tools` extends each with
// `_intent` and its zod schemas must infer exactly that (its factories and a type test do not compile on any
// drift), so the presenters here and the tools there cannot disagree (ADR 0202). Presenters still narrow
// defensively: they also run on replayed and invalid calls.

/** Args of the built-in `Read` tool (`offset` is a 1-based line number). */
export interface ReadArgs {
  /** File to read, relative to the session cwd or absolute (inside a workspace root). */
  file_path: string;
  /** 1-based line to start at (0 counts as 1). */
  offset?: number | undefined;
  /** Maximum number of lines to return. */
  limit?: number | undefined;
}

/** Args of the built-in `Write` tool. */
export interface WriteArgs {
  /** File to create or overwrite. */
  file_path: string;
  /** The complete new content. */
  content: string;
}

/** Args of the built-in `Edit` tool. */
export interface EditArgs {
  /** File to edit. */
  file_path: string;
  /** Exact text to replace; empty only to create a new (or fill an empty) file. */
  old_string: string;
  /** Replacement text. */
  new_string: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replace_all?: boolean | undefined;
}

/** Args of the built-in `Bash` tool. */
export interface BashArgs {
  /** The command line, run as `bash -c <command>` in the session cwd. */
  command: string;
  /** What the command does, for people. */
  description?: string | undefined;
  /** Timeout in milliseconds (clamped to the configured maximum). */
  timeout?: number | undefined;
  /** Start as a background job instead of waiting. */
  run_in_background?: boolean | undefined;
}

/** One entry of the built-in `TodoWrite` list, as the model writes it. */
export interface TodoItem {
  /** What to do, imperative ("Run the tests"). */
  content: string;
  /** Progress of the item. */
  status: 'pending' | 'in_progress' | 'completed';
  /** Present-continuous form shown while in progress ("Running the tests"). */
  activeForm?: string | undefined;
}

/** Args of the built-in `TodoWrite` tool: the complete new list. */
export interface TodoWriteArgs {
  /** The whole list; it replaces the previous one. */
  todos: TodoItem[];
}

/**
 * Presentation meta the `Write` and `Edit` tools persist with a successful result: the file
 * content before (`null` when the file was created) and after the change.
 */
export interface FileChangeMeta {
  /** Content before the change; `null` for a new file. */
  before: string | null;
  /** Content after the change. */
  after: string;
}

/** Presentation meta the `Bash` tool persists with a result. */
export interface BashResultMeta {
  /** Combined output as the user would see it (defaults to the model-facing text). */
  output?: string;
  /** Exit code, when the process exited. */
  exitCode?: number | null;
  /** Signal name, when the process was killed. */
  signal?: string | null;
}

/**
 * Names of the built-in tools {@link createBuiltinPresenters} covers: five of the nine built-in tools of
 * `@codeagent/tools` (whose `BuiltinToolName` lists all nine); the others get the generic card here.
 */
export type PresentedToolName = 'Read' | 'Write' | 'Edit' | 'Bash' | 'TodoWrite';

/** @deprecated Use {@link PresentedToolName}: the name said "built-in tool" but lists only the presented five. */
export type BuiltinToolName = PresentedToolName;

/** The built-in presentations keyed by tool name. */
export type BuiltinPresenters = Readonly<Record<PresentedToolName, ToolPresentation>>;

/** Options for {@link createBuiltinPresenters}. */
export interface BuiltinPresenterOptions {
  /** The session cwd: titles show paths relative to it, locations and diffs use absolute paths. */
  cwd?: string;
}

const str = (o: Record<string, unknown>, k: string): string | undefined =>
  typeof o[k] === 'string' ? o[k] : undefined;
const posInt = (o: Record<string, unknown>, k: string): number | undefined => {
  const v = o[k];
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
};

/** Narrows persisted file-change meta; anything malformed is `undefined`. */
export function narrowFileChangeMeta(meta: unknown): FileChangeMeta | undefined {
  if (!isRecord(meta) || typeof meta.after !== 'string') return undefined;
  if (meta.before !== null && typeof meta.before !== 'string') return undefined;
  return { before: meta.before, after: meta.after };
}

/** Narrows persisted Bash meta; malformed fields are dropped. */
export function narrowBashResultMeta(meta: unknown): BashResultMeta {
  if (!isRecord(meta)) return {};
  const out: BashResultMeta = {};
  if (typeof meta.output === 'string') out.output = meta.output;
  if (typeof meta.exitCode === 'number' && Number.isSafeInteger(meta.exitCode)) out.exitCode = meta.exitCode;
  if (typeof meta.signal === 'string' && meta.signal !== '') out.signal = meta.signal;
  return out;
}

const fenced = (text: string): ContentBlock[] => [{ type: 'text', text: terminalFallbackText(text) }];

/**
 * Creates the reference presenters of the built-in tools (the producer mapping of CONTRACTS §2),
 * as pure functions shared by `@codeagent/tools` (producer) and the bridges (replay, fixtures).
 */
export function createBuiltinPresenters(options: BuiltinPresenterOptions = {}): BuiltinPresenters {
  const { cwd } = options;
  const abs = (p: string): string => resolvePath(p, cwd);
  const shown = (p: string): string => displayPath(p, cwd);

  const fileChangeResult = (path: string, result: PresentResultInput): ToolResultView | undefined => {
    if (result.isError) return undefined;
    const meta = narrowFileChangeMeta(result.meta);
    if (!meta) return undefined;
    const diffs: FileDiff[] =
      meta.before === null
        ? [{ path: abs(path), oldText: null, newText: meta.after }]
        : computeHunkDiffs(abs(path), meta.before, meta.after);
    // An overwrite that changed nothing still shows the whole file, never a blank card.
    if (diffs.length === 0) diffs.push({ path: abs(path), oldText: meta.before, newText: meta.after });
    return { card: 'diff', diffs };
  };

  const Read: ToolPresentation = {
    presentCall(args): ToolCallView | undefined {
      if (!isRecord(args)) return undefined;
      const path = str(args, 'file_path');
      if (path === undefined) return undefined;
      const offset = posInt(args, 'offset');
      const limit = posInt(args, 'limit');
      const start = offset ?? 1;
      const window =
        limit !== undefined
          ? ` (${start} - ${start + limit - 1})`
          : offset !== undefined
            ? ` (from line ${offset})`
            : '';
      return {
        card: 'generic',
        title: `Read ${shown(path)}${window}`,
        kind: 'read',
        locations: [{ path: abs(path), line: start }],
      };
    },
  };

  const Write: ToolPresentation = {
    presentCall(args) {
      if (!isRecord(args)) return undefined;
      const path = str(args, 'file_path');
      const content = str(args, 'content');
      if (path === undefined || content === undefined) return undefined;
      return {
        card: 'diff',
        title: `Write ${shown(path)}`,
        diffs: [{ path: abs(path), oldText: null, newText: content }],
        locations: [{ path: abs(path) }],
      };
    },
    presentResult(args, result) {
      const path = isRecord(args) ? str(args, 'file_path') : undefined;
      return path === undefined ? undefined : fileChangeResult(path, result);
    },
  };

  const Edit: ToolPresentation = {
    presentCall(args) {
      if (!isRecord(args)) return undefined;
      const path = str(args, 'file_path');
      const oldString = str(args, 'old_string');
      if (path === undefined || oldString === undefined) return undefined;
      return {
        card: 'diff',
        title: `Edit ${shown(path)}`,
        diffs: [{ path: abs(path), oldText: oldString || null, newText: str(args, 'new_string') ?? '' }],
        locations: [{ path: abs(path) }],
      };
    },
    presentResult(args, result) {
      const path = isRecord(args) ? str(args, 'file_path') : undefined;
      return path === undefined ? undefined : fileChangeResult(path, result);
    },
  };

  const Bash: ToolPresentation = {
    presentCall(args) {
      if (!isRecord(args)) return undefined;
      const command = str(args, 'command');
      if (command === undefined) return undefined;
      const description = str(args, 'description');
      if (args.run_in_background === true) {
        return {
          card: 'generic',
          title: command,
          kind: 'execute',
          rawInput: args,
          ...(description === undefined ? {} : { content: [{ type: 'text', text: description }] }),
        };
      }
      return {
        card: 'terminal',
        title: command,
        ...(description === undefined ? {} : { description }),
        ...(cwd === undefined ? {} : { cwd }),
      };
    },
    presentResult(args, result) {
      const meta = narrowBashResultMeta(result.meta);
      const output = meta.output ?? result.value;
      const background = isRecord(args) && args.run_in_background === true;
      const { exitCode, signal } = meta;
      const exited = typeof exitCode === 'number' || typeof signal === 'string';
      if (background || (result.isError && !exited)) return { card: 'generic', content: fenced(output) };
      if (typeof signal === 'string') return { card: 'terminal', output, signal };
      if (typeof exitCode === 'number') return { card: 'terminal', output, exitCode };
      return { card: 'terminal', output };
    },
  };

  // The plan is drawn once, by the result: TodoWrite's artifact is the list as a table (every UI draws it). The call
  // card says what the call does in one line (the counts) and carries the exact input, which an approval reveals.
  const TodoWrite: ToolPresentation = {
    presentCall(args) {
      if (!isRecord(args) || !Array.isArray(args.todos)) return undefined;
      const todos = args.todos.filter(isRecord);
      const count = (status: string): number => todos.filter((t) => t.status === status).length;
      const text =
        todos.length === 0
          ? 'Clears the list'
          : `${todos.length} ${todos.length === 1 ? 'item' : 'items'}: ${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending`;
      return {
        card: 'generic',
        title: 'Update todos',
        kind: 'other',
        content: [{ type: 'text', text }],
        rawInput: args,
      };
    },
  };

  return Object.freeze({ Read, Write, Edit, Bash, TodoWrite });
}

/** The built-in presenters without a session cwd (paths are shown and sent as given). */
export const builtinPresenters: BuiltinPresenters = createBuiltinPresenters();
