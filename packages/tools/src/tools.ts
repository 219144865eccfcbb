import { type AgentTool, defineTool, type ToolContext, withPresentationMeta } from '@codeagent/agent-core';
import {
  type ArtifactKindName,
  type ArtifactPayload,
  type ToolResult,
  toolResult,
} from '@codeagent/artifact-schema';
import { type Capability, BUILTIN_TOOL_META as LOCKED_TOOL_META } from '@codeagent/permission-gate';
import type { BashArgs as PresentedBashArgs, ToolCallView, ToolPresentation } from '@codeagent/render-intent';
import type { z } from 'zod';
import { errnoCode, oneLine, ToolError, type ToolErrorCode } from './errors.js';
import {
  type ApprovedChange,
  type EditArgs,
  editTextFile,
  type FileChangeLimits,
  type FileChangeOutcome,
  type FileChangePreview,
  previewEdit,
  previewWrite,
  type WriteArgs,
  writeTextFile,
} from './files.js';
import { BackgroundJobs, type JobInfo } from './jobs.js';
import { type CommandResult, ProcessGroups, runCommand } from './process.js';
import { type BuiltinToolName, createBuiltinPresentations } from './presenters.js';
import { type ReadArgs, type ReadLimits, readImageFile, readTextFile } from './read.js';
import { BUILTIN_INPUT_SCHEMAS } from './schemas.js';
import {
  type GlobArgs,
  type GrepArgs,
  globFiles,
  grepFiles,
  type ReadFilter,
  readAllowed,
  type SearchLimits,
  type SearchOutcome,
} from './search.js';
import { toPlainText } from './text.js';
import { TodoList, type TodoWriteArgs } from './todo.js';
import { Workspace } from './workspace.js';

/** Capability of a built-in tool, as the permission gate classifies it (none of them is `net`). */
export type BuiltinCapability = Exclude<Capability, 'net'>;

/** Permission metadata of a built-in tool: capability, tool set and the argument rules match. */
export interface BuiltinToolMeta {
  /** What the tool can do. */
  readonly capability: BuiltinCapability;
  /** Tool set, for `policy.sets`: `files`, `shell` or `todo`. */
  readonly set: 'files' | 'shell' | 'todo';
  /**
   * Input key that rule patterns such as `Edit(src/**)` match. Glob and Grep leave it to the gate's default
   * order (`path` when given, else `pattern`).
   */
  readonly primaryArgument?: string;
}

/** The built-in tools' names, in the order `builtinTools()` returns them. */
const BUILTIN_TOOL_NAMES: readonly BuiltinToolName[] = [
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'Bash',
  'TodoWrite',
  'job_output',
  'job_kill',
];

/**
 * Capability metadata of every built-in tool: read from the permission gate's locked table
 * (`BUILTIN_TOOL_META` of `@codeagent/permission-gate`), the one place these facts are written.
 */
export const BUILTIN_TOOL_META: Readonly<Record<BuiltinToolName, BuiltinToolMeta>> = Object.freeze(
  Object.fromEntries(
    BUILTIN_TOOL_NAMES.map((name) => [name, LOCKED_TOOL_META[name] as BuiltinToolMeta]),
  ) as Record<BuiltinToolName, BuiltinToolMeta>,
);

/** The artifact kind each built-in tool produces on success (Read gives `image` instead for an image file). */
export const BUILTIN_ARTIFACT_KINDS: Readonly<Record<BuiltinToolName, ArtifactKindName>> = Object.freeze({
  Read: 'code',
  Write: 'diff',
  Edit: 'diff',
  Glob: 'table',
  Grep: 'table',
  Bash: 'code',
  TodoWrite: 'table',
  job_output: 'code',
  job_kill: 'text',
});

/** Limits of the Bash tool and its background jobs. */
export interface BashLimits {
  /** Timeout when the call gives none (default 120,000 ms). */
  defaultTimeoutMs?: number;
  /** Largest timeout a call may ask for (default 600,000 ms). */
  maxTimeoutMs?: number;
  /** Output kept per command (head + tail), in bytes (default 30,000). */
  maxOutputBytes?: number;
  /** Delay between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** Shell run as `<shell> -c <command>` (default `bash`). */
  shell?: string;
}

/** Options of {@link builtinTools} and of each tool factory. */
export interface BuiltinToolsOptions {
  /** Session working directory: relative paths and commands start here; it is always a workspace root. */
  cwd: string;
  /** Extra directories the file tools may touch. */
  roots?: readonly string[];
  /** A workspace to share between factories (default: one built from `cwd` and `roots`). */
  workspace?: Workspace;
  /** Environment of Bash commands (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Background jobs table shared by Bash, job_output and job_kill (default: a new one). */
  jobs?: BackgroundJobs;
  /** Registry of the process groups of running foreground Bash commands (default: a new one). */
  groups?: ProcessGroups;
  /** Todo list TodoWrite replaces (default: a new one). */
  todos?: TodoList;
  /** Read limits. */
  read?: ReadLimits;
  /** Write and Edit limits. */
  files?: FileChangeLimits;
  /** Glob and Grep limits. */
  search?: SearchLimits;
  /** Bash limits. */
  bash?: BashLimits;
  /**
   * Previews shown for approval, by call id (shared by the toolkit's `preview` and the Write/Edit tools; default:
   * a new map). A Write or Edit whose call id is here only writes when the file is still what the preview showed.
   */
  approvals?: Map<string, ApprovedChange>;
  /**
   * Read-path permission for Read, Glob and Grep: called with each file's absolute lexical and real path; `false`
   * makes Read refuse the file and the searches skip it (so `Read(**\/.env)` hides `.env` from Grep too). Hosts
   * pass `(p) => gate.readRestriction(p) === null`. Default: every file inside the workspace.
   */
  readFilter?: ReadFilter;
  /**
   * Write-path check for Write and Edit, called with the real path when it differs from the path the call named
   * (a symbolic link): `false` refuses the write, so a link cannot carry an approved write into protected
   * configuration. Hosts pass `(p) => !gate.isProtectedPath(p)`. Default: no check.
   */
  writeFilter?: (absolutePath: string) => boolean;
}

interface Shared {
  /** Previews shown for approval, by call id: the call's execute holds the file to them. */
  approvals: Map<string, ApprovedChange>;
  workspace: Workspace;
  jobs: BackgroundJobs;
  groups: ProcessGroups;
  todos: TodoList;
  presenters: Readonly<Record<BuiltinToolName, ToolPresentation>>;
  options: BuiltinToolsOptions;
}

const shared = (options: BuiltinToolsOptions): Shared => {
  const workspace = options.workspace ?? new Workspace({ cwd: options.cwd, roots: options.roots });
  return {
    approvals: options.approvals ?? new Map(),
    workspace,
    jobs:
      options.jobs ??
      new BackgroundJobs({
        ...(options.bash?.maxOutputBytes === undefined
          ? {}
          : { maxOutputBytes: options.bash.maxOutputBytes }),
        ...(options.bash?.killGraceMs === undefined ? {} : { killGraceMs: options.bash.killGraceMs }),
        ...(options.bash?.shell === undefined ? {} : { shell: options.bash.shell }),
      }),
    groups: options.groups ?? new ProcessGroups(),
    todos: options.todos ?? new TodoList(),
    presenters: createBuiltinPresentations({ cwd: workspace.cwd }),
    options,
  };
};

/** Builds a success result with its artifact and, when given, persisted presentation meta. */
function success(
  value: string,
  kind: ArtifactKindName,
  payload: ArtifactPayload,
  title: string,
  icon: string,
  meta?: unknown,
): ToolResult {
  const result = toolResult(value, { kind, payload, title, icon });
  return meta === undefined ? result : withPresentationMeta(result, meta);
}

/** Turns a thrown value into an error result with a clear one-line value. */
function failure(error: unknown): ToolResult {
  const message = error instanceof ToolError ? error.message : oneLine(error);
  const code = error instanceof ToolError ? error.code : (errnoCode(error) ?? 'io-error');
  return { ...toolResult(message, { kind: 'error', payload: { message, detail: code } }), error: message };
}

/** The approval a call was shown, taken once (a call executes at most once). */
function takeApproval(s: Shared, callId: string | undefined): ApprovedChange | undefined {
  if (callId === undefined) return undefined;
  const approved = s.approvals.get(callId);
  s.approvals.delete(callId);
  return approved;
}

/** Remembers what a call's approval showed; old entries (calls that were denied) are dropped past 256. */
function rememberApproval(s: Shared, callId: string, approved: ApprovedChange): void {
  s.approvals.delete(callId);
  s.approvals.set(callId, approved);
  for (const key of s.approvals.keys()) {
    if (s.approvals.size <= 256) break;
    s.approvals.delete(key);
  }
}

/** What the approval of a Write or Edit shows: computed read-only from the file when the user is asked. */
export type ToolCallPreview =
  | {
      /** The change can be made. */
      readonly ok: true;
      /** The card to show: the whole-file diff (real line numbers, context), or a note when it is too large. */
      readonly view: ToolCallView;
      /** The computed change. */
      readonly change: FileChangePreview;
    }
  | {
      /** The call would fail; it says why (the same error the tool gives). */
      readonly ok: false;
      /** The tool's error code. */
      readonly code: ToolErrorCode;
      /** The tool's error message. */
      readonly message: string;
    };

function previewView(tool: 'Write' | 'Edit', p: FileChangePreview): ToolCallView {
  const links =
    p.links > 1
      ? ` (⚠ ${p.links} hard links: approving also changes the file under its other names, maybe outside the workspace)`
      : '';
  const title = `${tool} ${p.displayPath}${links}`;
  if (p.after === null || (p.before === null && p.change !== 'created')) {
    const what =
      tool === 'Edit'
        ? `${p.replacements} replacement${p.replacements === 1 ? '' : 's'}`
        : p.change === 'created'
          ? 'a new file'
          : 'the whole file';
    return {
      card: 'generic',
      title,
      kind: 'edit',
      locations: [{ path: p.path }],
      content: [
        {
          type: 'text',
          text: `${what}; the file is binary or too large to preview here, so no diff is shown`,
        },
      ],
    };
  }
  return {
    card: 'diff',
    title,
    diffs: [{ path: p.displayPath, oldText: p.before, newText: p.after }],
    locations: [{ path: p.path }],
  };
}

/**
 * Computes the approval preview of a Write or Edit call; `undefined` for any other tool. A hard-linked file is
 * previewed (with a warning in the title) rather than refused: the user's approval is what may allow it.
 */
async function previewCall(s: Shared, name: string, args: unknown): Promise<ToolCallPreview | undefined> {
  if (name !== 'Edit' && name !== 'Write') return undefined;
  const limits: FileChangeLimits = { ...s.options.files, allowHardLinks: true };
  if (s.options.readFilter !== undefined) {
    // A file the rules hide from Read is not read for a preview either: its content stays unseen until approval.
    const filePath = (args as { file_path?: unknown } | null)?.file_path;
    if (typeof filePath !== 'string') return undefined;
    try {
      const r = await s.workspace.resolve(filePath);
      if (!readAllowed(s.options.readFilter, r.absolute, r.real)) return undefined;
    } catch {
      return undefined;
    }
  }
  try {
    const change =
      name === 'Edit'
        ? await previewEdit(s.workspace, parse(BUILTIN_INPUT_SCHEMAS.Edit, args, 'Edit'), limits)
        : await previewWrite(s.workspace, parse(BUILTIN_INPUT_SCHEMAS.Write, args, 'Write'), limits);
    return { ok: true, view: previewView(name, change), change };
  } catch (error) {
    const message = error instanceof ToolError ? error.message : oneLine(error);
    const code = error instanceof ToolError ? error.code : 'io-error';
    return { ok: false, code, message };
  }
}

/** The tool's own failure result when its preview fails, else `undefined` (for `precheck`). */
async function refusal(s: Shared, name: 'Edit' | 'Write', args: unknown): Promise<ToolResult | undefined> {
  const p = await previewCall(s, name, args);
  if (p === undefined || p.ok) return undefined;
  return failure(new ToolError(p.code, p.message));
}

async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    return failure(error);
  }
}

/** The arguments of a built-in tool, inferred from its input schema. */
type ArgsOf<N extends BuiltinToolName> = z.infer<(typeof BUILTIN_INPUT_SCHEMAS)[N]>;

/** What differs between the built-in tools; {@link builtinTool} supplies the rest. */
interface BuiltinToolSpec<N extends BuiltinToolName> {
  /** What the tool does, for the model. */
  readonly description: string;
  /** Does the work on the parsed input; a thrown error becomes an error result with a one-line value. */
  readonly run: (input: ArgsOf<N>, ctx: Partial<ToolContext> | undefined) => Promise<ToolResult>;
  /** Optional read-only check before the gate asks (see `AgentTool.precheck`): a refusal ends the call unasked. */
  readonly precheck?: (args: unknown) => unknown;
}

/**
 * The one skeleton of every built-in tool: by its name, the input schema (`BUILTIN_INPUT_SCHEMAS`), the
 * permission facts from the gate's locked table and the render-intent presenters; validated input; errors
 * as results.
 */
function builtinTool<N extends BuiltinToolName>(
  s: Shared,
  name: N,
  spec: BuiltinToolSpec<N>,
): AgentTool<ArgsOf<N>> {
  const presenter = s.presenters[name];
  // TypeScript cannot narrow a generic index; ArgsOf<N> is by definition the output of this schema.
  const inputSchema = BUILTIN_INPUT_SCHEMAS[name] as unknown as z.ZodType<ArgsOf<N>>;
  return defineTool<ArgsOf<N>>({
    name,
    description: spec.description,
    inputSchema,
    capability: BUILTIN_TOOL_META[name],
    execute: (args, ctx?: Partial<ToolContext>) =>
      guarded(() => spec.run(parse(inputSchema, args, name), ctx)),
    ...(spec.precheck ? { precheck: spec.precheck } : {}),
    presentCall: (args) => presenter.presentCall?.(args),
    presentResult: (args, result) => presenter.presentResult?.(args, result),
  });
}

function parse<T>(schema: z.ZodType<T>, args: unknown, tool: string): T {
  const r = schema.safeParse(args);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new ToolError('invalid-input', `Invalid ${tool} input: ${where}${issue?.message ?? 'bad arguments'}`);
}

/** Creates the Read tool: a `code` artifact and `cat -n` numbered lines for the model (an `image` artifact for images). */
export function createReadTool(options: BuiltinToolsOptions): AgentTool<ReadArgs> {
  const s = shared(options);
  return builtinTool(s, 'Read', {
    description:
      'Read a text file. Returns lines numbered like `cat -n` (number, tab, line). Reads up to 2000 lines by default; use offset and limit for large files. PNG, JPEG, GIF and WebP images are shown to the user as an image. Refuses other binary files and paths outside the workspace.',
    run: async (input, ctx) => {
      if (s.options.readFilter !== undefined) {
        const r = await s.workspace.resolve(input.file_path);
        if (!readAllowed(s.options.readFilter, r.absolute, r.real)) {
          throw new ToolError('permission-denied', `Permission rules do not allow reading ${r.display}`);
        }
      }
      const image = await readImageFile(s.workspace, input, s.options.read);
      if (image !== undefined) {
        return success(
          image.value,
          'image',
          { images: [{ mime: image.mime, b64: image.b64 }] },
          `Read ${image.displayPath}`,
          'image',
        );
      }
      const out = await readTextFile(s.workspace, input, s.options.read, ctx?.signal);
      const range = out.endLine >= out.startLine ? ` (${out.startLine} - ${out.endLine})` : '';
      return success(
        out.value,
        'code',
        {
          text: out.text,
          lang: out.lang,
          filename: out.displayPath,
          startLine: out.startLine,
          endLine: out.endLine,
          totalLines: out.totalLines ?? null,
        },
        `Read ${out.displayPath}${range}`,
        'file',
      );
    },
  });
}

function fileChangeResult(out: FileChangeOutcome, title: string): ToolResult {
  // Diffable when both images were kept (a created file has no before-image by definition).
  const diffable = out.after !== null && (out.change === 'created' || out.before !== null);
  if (!diffable || out.after === null)
    return success(out.value, 'text', { text: out.value }, title, 'pencil');
  return success(
    out.value,
    'diff',
    { old: out.before ?? '', new: out.after, path: out.displayPath },
    title,
    'pencil',
    { before: out.before, after: out.after },
  );
}

/** Refuses a write that a symbolic link would carry to a path the host's `writeFilter` protects. */
async function checkWriteTarget(s: Shared, filePath: string): Promise<void> {
  const check = s.options.writeFilter;
  if (check === undefined) return;
  const r = await s.workspace.resolve(filePath);
  if (r.real === r.absolute) return;
  let ok = false;
  try {
    ok = check(r.real) === true;
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new ToolError(
      'permission-denied',
      `${r.display} is a link to protected configuration (${r.real}); write that path by name so it can be approved`,
    );
  }
}

/** Creates the Write tool: creates or overwrites a file; a `diff` artifact and an applied-hunk result view. */
export function createWriteTool(options: BuiltinToolsOptions): AgentTool<WriteArgs> {
  const s = shared(options);
  return builtinTool(s, 'Write', {
    description:
      'Create a file or overwrite it with the given content (parent directories are created). Prefer Edit to change part of an existing file.',
    precheck: (args) => refusal(s, 'Write', args),
    run: async (input, ctx) => {
      const approved = takeApproval(s, ctx?.callId);
      await checkWriteTarget(s, input.file_path);
      const out = await writeTextFile(s.workspace, input, s.options.files, approved);
      return fileChangeResult(out, `Write ${out.displayPath}`);
    },
  });
}

/** Creates the Edit tool: exact string replacement; a non-unique or missing `old_string` is a clear error. */
export function createEditTool(options: BuiltinToolsOptions): AgentTool<EditArgs> {
  const s = shared(options);
  return builtinTool(s, 'Edit', {
    description:
      'Replace exact text in a file. old_string must match the file exactly (copy it from Read output without the line-number prefix) and occur once, unless replace_all is true. An empty old_string creates a new file.',
    precheck: (args) => refusal(s, 'Edit', args),
    run: async (input, ctx) => {
      const approved = takeApproval(s, ctx?.callId);
      await checkWriteTarget(s, input.file_path);
      const out = await editTextFile(s.workspace, input, s.options.files, approved);
      return fileChangeResult(out, `Edit ${out.displayPath}`);
    },
  });
}

/** Persisted meta of Glob and Grep: how many results were listed and whether a cap cut them. */
export interface SearchResultMeta {
  /** Results listed. */
  count: number;
  /** Whether a cap cut the list. */
  truncated: boolean;
}

function searchResult(out: SearchOutcome, title: string): ToolResult {
  const meta: SearchResultMeta = { count: out.count, truncated: out.truncated };
  return success(out.value, 'table', { df: out.rows, columns: out.columns }, title, 'search', meta);
}

/** Creates the Glob tool: files matching a pattern, newest first, as a `table` artifact. */
export function createGlobTool(options: BuiltinToolsOptions): AgentTool<GlobArgs> {
  const s = shared(options);
  return builtinTool(s, 'Glob', {
    description:
      'Find files by glob pattern (e.g. "**/*.ts"). Returns matching paths, most recently modified first. Honours .gitignore.',
    run: async (parsed, ctx) => {
      const out = await globFiles(s.workspace, parsed, s.options.search, ctx?.signal, s.options.readFilter);
      return searchResult(out, `Glob ${parsed.pattern}`);
    },
  });
}

/** Creates the Grep tool: a regex search over files (honouring .gitignore), capped, as a `table` artifact. */
export function createGrepTool(options: BuiltinToolsOptions): AgentTool<GrepArgs> {
  const s = shared(options);
  return builtinTool(s, 'Grep', {
    description:
      'Search file contents with a regular expression. Honours .gitignore, skips binary files, and caps the number of results; narrow with path or glob.',
    run: async (parsed, ctx) => {
      const out = await grepFiles(s.workspace, parsed, s.options.search, ctx?.signal, s.options.readFilter);
      return searchResult(out, `Grep /${parsed.pattern}/`);
    },
  });
}

/** Arguments of the Bash tool. */
export interface BashArgs extends PresentedBashArgs {
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}

function bashValue(
  plain: string,
  r: Pick<CommandResult, 'exitCode' | 'signal' | 'timedOut' | 'aborted' | 'abandonedPipes' | 'survivors'>,
  timeoutMs: number,
): string {
  const notes: string[] = [];
  if (r.timedOut) notes.push(`[Command timed out after ${timeoutMs} ms and was killed]`);
  else if (r.aborted) notes.push('[Command interrupted and killed]');
  if (r.signal !== null) notes.push(`[Terminated by signal ${r.signal}]`);
  else if (r.exitCode !== null && r.exitCode !== 0) notes.push(`[Exit code ${r.exitCode}]`);
  if (r.survivors.length > 0) {
    const list = r.survivors
      .slice(0, 10)
      .map((p) => `${p.pid} (${p.name})`)
      .join(', ');
    const more = r.survivors.length > 10 ? ` and ${r.survivors.length - 10} more` : '';
    notes.push(
      `[${r.survivors.length} process(es) left the command's process group and still run: ${list}${more}]`,
    );
  } else if (r.abandonedPipes) {
    notes.push("[Stopped waiting for output held open by a process outside the command's process group]");
  }
  const body = plain.replace(/\n+$/, '');
  const text = body === '' && notes.length === 0 ? '(no output)' : body;
  return [text, ...notes].filter((part) => part !== '').join('\n');
}

/** Creates the Bash tool: a real `bash -c` child process per call, timeout, capped output, background jobs. */
export function createBashTool(options: BuiltinToolsOptions): AgentTool<BashArgs> {
  const s = shared(options);
  const limits = s.options.bash ?? {};
  const defaultTimeout = limits.defaultTimeoutMs ?? 120_000;
  const maxTimeout = limits.maxTimeoutMs ?? 600_000;
  return builtinTool(s, 'Bash', {
    description: `Run a shell command with bash in the working directory and return its combined stdout and stderr (long output keeps its start and end). Default timeout ${defaultTimeout} ms, at most ${maxTimeout} ms. Use run_in_background for servers and watchers. Prefer Read, Glob and Grep over cat, find and grep.`,
    run: async (parsed, ctx) => {
      if (parsed.run_in_background === true) {
        const job = s.jobs.start(parsed.command, { cwd: s.workspace.cwd, env: s.options.env });
        const value = `Started background job ${job.id} (pid ${job.pid ?? 'unknown'}). Read its output with job_output {"job_id": "${job.id}"}; stop it with job_kill.`;
        return success(
          value,
          'code',
          { text: parsed.command, lang: 'bash', output: '', jobId: job.id },
          parsed.command,
          'terminal',
          {
            output: value,
          },
        );
      }
      const timeoutMs = Math.min(parsed.timeout ?? defaultTimeout, maxTimeout);
      const r = await runCommand(parsed.command, {
        cwd: s.workspace.cwd,
        timeoutMs,
        maxOutputBytes: limits.maxOutputBytes ?? 30_000,
        signal: ctx?.signal,
        env: s.options.env,
        killGraceMs: limits.killGraceMs,
        shell: limits.shell,
        groups: s.groups,
        // Live output for the host's card, within the same cap as the result; the model gets only the result.
        onOutput: ctx?.output ? (stream, text) => ctx.output?.({ stream, text }) : undefined,
      });
      const value = bashValue(r.plain, r, timeoutMs);
      const meta = { output: r.output, exitCode: r.exitCode, signal: r.signal };
      const payload = {
        text: parsed.command,
        lang: 'bash',
        output: r.output,
        exitCode: r.exitCode,
        signal: r.signal,
        timedOut: r.timedOut,
        totalBytes: r.totalBytes,
        droppedBytes: r.droppedBytes,
      };
      const result = toolResult(value, {
        kind: 'code',
        payload,
        title: parsed.command,
        icon: 'terminal',
        status: r.timedOut || r.aborted ? 'error' : 'success',
      });
      return withPresentationMeta(
        r.timedOut || r.aborted ? { ...result, error: value.split('\n').pop() } : result,
        meta,
      );
    },
  });
}

/** Arguments of job_output and job_kill. */
export interface JobArgs {
  /** The background job id. */
  job_id: string;
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}
const jobState = (info: JobInfo): string =>
  info.status === 'running'
    ? `[${info.id} is still running]`
    : info.signal !== null
      ? `[${info.id} ended by signal ${info.signal}]`
      : `[${info.id} exited with code ${info.exitCode ?? 'unknown'}]`;

/** Creates job_output: the output a background job wrote since the last read, and its state. */
export function createJobOutputTool(options: BuiltinToolsOptions): AgentTool<JobArgs> {
  const s = shared(options);
  return builtinTool(s, 'job_output', {
    description:
      'Read the output a background Bash job wrote since the previous read, and whether it is still running.',
    run: async ({ job_id }) => {
      const { info, output } = s.jobs.read(job_id);
      const plain = toPlainText(output.text).replace(/\n+$/, '');
      const value = `${plain === '' ? '(no new output)' : plain}\n${jobState(info)}`;
      return success(
        value,
        'code',
        {
          text: info.command,
          lang: 'bash',
          output: output.text,
          status: info.status,
          exitCode: info.exitCode,
          signal: info.signal,
        },
        `Output of ${info.id}`,
        'terminal',
        { output: output.text },
      );
    },
  });
}

/** Creates job_kill: stops a background job's whole process group. */
export function createJobKillTool(options: BuiltinToolsOptions): AgentTool<JobArgs> {
  const s = shared(options);
  return builtinTool(s, 'job_kill', {
    description: 'Stop a background Bash job and every process it started.',
    run: async ({ job_id }) => {
      const before = s.jobs.list().find((j) => j.id === job_id);
      const info = await s.jobs.kill(job_id);
      const value =
        before?.status === 'running'
          ? `Stopped ${info.id}. ${jobState(info)}`
          : `${info.id} was not running. ${jobState(info)}`;
      return success(value, 'text', { text: value }, `Stop ${info.id}`, 'terminal');
    },
  });
}

/** Creates TodoWrite: replaces the session's todo list; a `table` artifact and a checklist value. */
export function createTodoWriteTool(options: BuiltinToolsOptions): AgentTool<TodoWriteArgs> {
  const s = shared(options);
  return builtinTool(s, 'TodoWrite', {
    description:
      'Replace your todo list for this session. Use it for multi-step work: keep exactly one item in_progress and mark items completed as soon as they are done.',
    run: async ({ todos }) => {
      const value = s.todos.write(todos);
      const rows = todos.map((t) => ({
        content: t.content,
        status: t.status,
        activeForm: t.activeForm ?? null,
      }));
      return success(
        value,
        'table',
        {
          df: rows,
          columns: [
            { name: 'content', type: 'string' },
            { name: 'status', type: 'string' },
            { name: 'activeForm', type: 'string' },
          ],
        },
        'Todos',
        'checklist',
      );
    },
  });
}

/** The built-in tools plus the session state they share, for hosts that need to reach it. */
export interface BuiltinToolkit {
  /** Read, Write, Edit, Glob, Grep, Bash, TodoWrite, job_output, job_kill (in that order). */
  tools: AgentTool[];
  /** The workspace the file tools are confined to (call `addRoot` to widen it). */
  workspace: Workspace;
  /** Background jobs started by Bash. */
  jobs: BackgroundJobs;
  /** The todo list TodoWrite replaces. */
  todos: TodoList;
  /** Process groups of the foreground Bash commands running now. */
  groups: ProcessGroups;
  /**
   * The approval preview of a Write or Edit call, read from the file now (`undefined` for other tools). With the
   * call id, the call then only writes if the file is still what this preview showed (else it fails with
   * `changed-since-approval`): what the user approves is what runs.
   */
  preview(name: string, args: unknown, callId?: string): Promise<ToolCallPreview | undefined>;
  /**
   * Sends `signal` (default SIGKILL) to the process group of every running foreground command and background
   * job, synchronously: for a host's SIGINT/SIGTERM/SIGHUP and `exit` handlers (`0` only counts the live groups).
   * Returns how many groups were alive.
   */
  killAll(signal?: NodeJS.Signals | 0): number;
  /** Kills every background job still running (call it when the session ends). */
  dispose(): Promise<void>;
}

/** Creates every built-in tool over one shared workspace, background-job table and todo list. */
export function createBuiltinToolkit(options: BuiltinToolsOptions): BuiltinToolkit {
  const s = shared(options);
  const common: BuiltinToolsOptions = {
    ...options,
    approvals: s.approvals,
    workspace: s.workspace,
    jobs: s.jobs,
    groups: s.groups,
    todos: s.todos,
  };
  const tools: AgentTool[] = [
    createReadTool(common),
    createWriteTool(common),
    createEditTool(common),
    createGlobTool(common),
    createGrepTool(common),
    createBashTool(common),
    createTodoWriteTool(common),
    createJobOutputTool(common),
    createJobKillTool(common),
  ];
  return {
    tools,
    workspace: s.workspace,
    jobs: s.jobs,
    todos: s.todos,
    groups: s.groups,
    killAll: (signal = 'SIGKILL') => s.groups.killAll(signal) + s.jobs.killAll(signal),
    preview: async (name, args, callId) => {
      const p = await previewCall(s, name, args);
      if (p?.ok === true && callId !== undefined) {
        rememberApproval(s, callId, {
          beforeDigest: p.change.beforeDigest,
          ...(p.change.links > 1 ? { allowHardLinks: true } : {}),
        });
      }
      return p;
    },
    dispose: () => s.jobs.dispose(),
  };
}

/**
 * Every built-in tool, sharing one workspace, one background-job table and one todo list:
 * Read, Write, Edit, Glob, Grep, Bash, TodoWrite, job_output, job_kill. Pass your own `jobs`
 * to dispose of background jobs at session end (or use {@link createBuiltinToolkit}).
 */
export function builtinTools(options: BuiltinToolsOptions): AgentTool[] {
  return createBuiltinToolkit(options).tools;
}
