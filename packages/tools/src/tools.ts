import { type AgentTool, defineTool, type ToolContext, withPresentationMeta } from '@codeagent/agent-core';
import {
  type ArtifactKindName,
  type ArtifactPayload,
  type ToolResult,
  toolResult,
} from '@codeagent/artifact-schema';
import type { ToolPresentation } from '@codeagent/render-intent';
import { z } from 'zod';
import { errnoCode, oneLine, ToolError } from './errors.js';
import {
  type EditArgs,
  editTextFile,
  type FileChangeLimits,
  type FileChangeOutcome,
  type WriteArgs,
  writeTextFile,
} from './files.js';
import { BackgroundJobs, type JobInfo } from './jobs.js';
import { runCommand } from './process.js';
import { type BuiltinToolName, createBuiltinPresentations } from './presenters.js';
import { type ReadArgs, type ReadLimits, readImageFile, readTextFile } from './read.js';
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

/** Capability of a built-in tool, as the permission gate classifies it. */
export type BuiltinCapability = 'read' | 'write' | 'exec';

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

/** Capability metadata of every built-in tool (authoritative: hosts cannot downgrade it). */
export const BUILTIN_TOOL_META: Readonly<Record<BuiltinToolName, BuiltinToolMeta>> = Object.freeze({
  Read: { capability: 'read', set: 'files', primaryArgument: 'file_path' },
  Write: { capability: 'write', set: 'files', primaryArgument: 'file_path' },
  Edit: { capability: 'write', set: 'files', primaryArgument: 'file_path' },
  Glob: { capability: 'read', set: 'files' },
  Grep: { capability: 'read', set: 'files' },
  Bash: { capability: 'exec', set: 'shell', primaryArgument: 'command' },
  TodoWrite: { capability: 'read', set: 'todo' },
  job_output: { capability: 'read', set: 'shell', primaryArgument: 'job_id' },
  job_kill: { capability: 'exec', set: 'shell', primaryArgument: 'job_id' },
});

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
  workspace: Workspace;
  jobs: BackgroundJobs;
  todos: TodoList;
  presenters: Readonly<Record<BuiltinToolName, ToolPresentation>>;
  options: BuiltinToolsOptions;
}

const shared = (options: BuiltinToolsOptions): Shared => {
  const workspace = options.workspace ?? new Workspace({ cwd: options.cwd, roots: options.roots });
  return {
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
    todos: options.todos ?? new TodoList(),
    presenters: createBuiltinPresentations({ cwd: workspace.cwd }),
    options,
  };
};

const intent = z
  .string()
  .optional()
  .describe('Optional: one short sentence telling the user why you make this call.');

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
  const code = error instanceof ToolError ? error.code : (errnoCode(error) ?? 'io_error');
  return { ...toolResult(message, { kind: 'error', payload: { message, detail: code } }), error: message };
}

async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    return failure(error);
  }
}

function parse<T>(schema: z.ZodType<T>, args: unknown, tool: string): T {
  const r = schema.safeParse(args);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new ToolError('invalid_input', `Invalid ${tool} input: ${where}${issue?.message ?? 'bad arguments'}`);
}

const ReadSchema = z.object({
  file_path: z.string().min(1).describe('The file to read: relative to the working directory, or absolute.'),
  offset: z.number().int().min(0).optional().describe('1-based line number to start reading at.'),
  limit: z.number().int().min(1).optional().describe('Number of lines to read (default 2000).'),
  _intent: intent,
});

/** Creates the Read tool: a `code` artifact and `cat -n` numbered lines for the model (an `image` artifact for images). */
export function createReadTool(options: BuiltinToolsOptions): AgentTool<ReadArgs> {
  const s = shared(options);
  return defineTool<ReadArgs>({
    name: 'Read',
    description:
      'Read a text file. Returns lines numbered like `cat -n` (number, tab, line). Reads up to 2000 lines by default; use offset and limit for large files. PNG, JPEG, GIF and WebP images are shown to the user as an image. Refuses other binary files and paths outside the workspace.',
    inputSchema: ReadSchema,
    capability: BUILTIN_TOOL_META.Read,
    execute: (args) =>
      guarded(async () => {
        const input = parse(ReadSchema, args, 'Read');
        if (s.options.readFilter !== undefined) {
          const r = await s.workspace.resolve(input.file_path);
          if (!readAllowed(s.options.readFilter, r.absolute, r.real)) {
            throw new ToolError('permission_denied', `Permission rules do not allow reading ${r.display}`);
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
        const out = await readTextFile(s.workspace, input, s.options.read);
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
      }),
    presentCall: (args) => s.presenters.Read.presentCall?.(args),
    presentResult: (args, result) => s.presenters.Read.presentResult?.(args, result),
  });
}

const WriteSchema = z.object({
  file_path: z.string().min(1).describe('The file to create or overwrite.'),
  content: z.string().describe('The complete new content of the file.'),
  _intent: intent,
});

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
      'permission_denied',
      `${r.display} is a link to protected configuration (${r.real}); write that path by name so it can be approved`,
    );
  }
}

/** Creates the Write tool: creates or overwrites a file; a `diff` artifact and an applied-hunk result view. */
export function createWriteTool(options: BuiltinToolsOptions): AgentTool<WriteArgs> {
  const s = shared(options);
  return defineTool<WriteArgs>({
    name: 'Write',
    description:
      'Create a file or overwrite it with the given content (parent directories are created). Prefer Edit to change part of an existing file.',
    inputSchema: WriteSchema,
    capability: BUILTIN_TOOL_META.Write,
    execute: (args) =>
      guarded(async () => {
        const input = parse(WriteSchema, args, 'Write');
        await checkWriteTarget(s, input.file_path);
        const out = await writeTextFile(s.workspace, input, s.options.files);
        return fileChangeResult(out, `Write ${out.displayPath}`);
      }),
    presentCall: (args) => s.presenters.Write.presentCall?.(args),
    presentResult: (args, result) => s.presenters.Write.presentResult?.(args, result),
  });
}

const EditSchema = z.object({
  file_path: z.string().min(1).describe('The file to edit.'),
  old_string: z
    .string()
    .describe('The exact text to replace, including whitespace; must occur exactly once unless replace_all.'),
  new_string: z.string().describe('The replacement text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string.'),
  _intent: intent,
});

/** Creates the Edit tool: exact string replacement; a non-unique or missing `old_string` is a clear error. */
export function createEditTool(options: BuiltinToolsOptions): AgentTool<EditArgs> {
  const s = shared(options);
  return defineTool<EditArgs>({
    name: 'Edit',
    description:
      'Replace exact text in a file. old_string must match the file exactly (copy it from Read output without the line-number prefix) and occur once, unless replace_all is true. An empty old_string creates a new file.',
    inputSchema: EditSchema,
    capability: BUILTIN_TOOL_META.Edit,
    execute: (args) =>
      guarded(async () => {
        const input = parse(EditSchema, args, 'Edit');
        await checkWriteTarget(s, input.file_path);
        const out = await editTextFile(s.workspace, input, s.options.files);
        return fileChangeResult(out, `Edit ${out.displayPath}`);
      }),
    presentCall: (args) => s.presenters.Edit.presentCall?.(args),
    presentResult: (args, result) => s.presenters.Edit.presentResult?.(args, result),
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

const GlobSchema = z.object({
  pattern: z.string().min(1).describe('Glob such as "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z.string().optional().describe('Directory to search (default: the working directory).'),
  _intent: intent,
});

/** Creates the Glob tool: files matching a pattern, newest first, as a `table` artifact. */
export function createGlobTool(options: BuiltinToolsOptions): AgentTool<GlobArgs> {
  const s = shared(options);
  return defineTool<GlobArgs>({
    name: 'Glob',
    description:
      'Find files by glob pattern (e.g. "**/*.ts"). Returns matching paths, most recently modified first. Honours .gitignore.',
    inputSchema: GlobSchema,
    capability: BUILTIN_TOOL_META.Glob,
    execute: (args, ctx?: Partial<ToolContext>) =>
      guarded(async () => {
        const parsed = parse(GlobSchema, args, 'Glob');
        const out = await globFiles(s.workspace, parsed, s.options.search, ctx?.signal, s.options.readFilter);
        return searchResult(out, `Glob ${parsed.pattern}`);
      }),
    presentCall: (args) => s.presenters.Glob.presentCall?.(args),
    presentResult: (args, result) => s.presenters.Glob.presentResult?.(args, result),
  });
}

const GrepSchema = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression, matched against each line.'),
  path: z.string().optional().describe('File or directory to search (default: the working directory).'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.tsx".'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      'content (default): matching lines as path:line:text; files_with_matches: paths; count: path:count.',
    ),
  ignore_case: z.boolean().optional().describe('Case-insensitive matching.'),
  _intent: intent,
});

/** Creates the Grep tool: a regex search over files (honouring .gitignore), capped, as a `table` artifact. */
export function createGrepTool(options: BuiltinToolsOptions): AgentTool<GrepArgs> {
  const s = shared(options);
  return defineTool<GrepArgs>({
    name: 'Grep',
    description:
      'Search file contents with a regular expression. Honours .gitignore, skips binary files, and caps the number of results; narrow with path or glob.',
    inputSchema: GrepSchema,
    capability: BUILTIN_TOOL_META.Grep,
    execute: (args, ctx?: Partial<ToolContext>) =>
      guarded(async () => {
        const parsed = parse(GrepSchema, args, 'Grep');
        const out = await grepFiles(s.workspace, parsed, s.options.search, ctx?.signal, s.options.readFilter);
        return searchResult(out, `Grep /${parsed.pattern}/`);
      }),
    presentCall: (args) => s.presenters.Grep.presentCall?.(args),
    presentResult: (args, result) => s.presenters.Grep.presentResult?.(args, result),
  });
}

const BashSchema = z.object({
  command: z.string().min(1).describe('The command line, run with `bash -c` in the working directory.'),
  description: z.string().optional().describe('What the command does, in 5-10 words, for the user.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Timeout in milliseconds (default 120000, at most 600000).'),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Start as a background job and return at once; read it with job_output, stop it with job_kill.',
    ),
  _intent: intent,
});

/** Arguments of the Bash tool. */
export interface BashArgs {
  /** The command line, run as `bash -c <command>` in the session cwd. */
  command: string;
  /** What the command does, for people. */
  description?: string | undefined;
  /** Timeout in milliseconds (clamped to the configured maximum). */
  timeout?: number | undefined;
  /** Start as a background job instead of waiting. */
  run_in_background?: boolean | undefined;
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}

function bashValue(
  plain: string,
  r: { exitCode: number | null; signal: string | null; timedOut: boolean; aborted: boolean },
  timeoutMs: number,
): string {
  const notes: string[] = [];
  if (r.timedOut) notes.push(`[Command timed out after ${timeoutMs} ms and was killed]`);
  else if (r.aborted) notes.push('[Command interrupted and killed]');
  if (r.signal !== null) notes.push(`[Terminated by signal ${r.signal}]`);
  else if (r.exitCode !== null && r.exitCode !== 0) notes.push(`[Exit code ${r.exitCode}]`);
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
  return defineTool<BashArgs>({
    name: 'Bash',
    description: `Run a shell command with bash in the working directory and return its combined stdout and stderr (long output keeps its start and end). Default timeout ${defaultTimeout} ms, at most ${maxTimeout} ms. Use run_in_background for servers and watchers. Prefer Read, Glob and Grep over cat, find and grep.`,
    inputSchema: BashSchema,
    capability: BUILTIN_TOOL_META.Bash,
    execute: (args, ctx?: Partial<ToolContext>) =>
      guarded(async () => {
        const parsed = parse(BashSchema, args, 'Bash');
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
      }),
    presentCall: (args) => s.presenters.Bash.presentCall?.(args),
    presentResult: (args, result) => s.presenters.Bash.presentResult?.(args, result),
  });
}

const JobSchema = z.object({
  job_id: z.string().min(1).describe('The id Bash returned when it started the job, e.g. "job-1".'),
  _intent: intent,
});

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
  return defineTool<JobArgs>({
    name: 'job_output',
    description:
      'Read the output a background Bash job wrote since the previous read, and whether it is still running.',
    inputSchema: JobSchema,
    capability: BUILTIN_TOOL_META.job_output,
    execute: (args) =>
      guarded(async () => {
        const { job_id } = parse(JobSchema, args, 'job_output');
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
      }),
    presentCall: (args) => s.presenters.job_output.presentCall?.(args),
    presentResult: (args, result) => s.presenters.job_output.presentResult?.(args, result),
  });
}

/** Creates job_kill: stops a background job's whole process group. */
export function createJobKillTool(options: BuiltinToolsOptions): AgentTool<JobArgs> {
  const s = shared(options);
  return defineTool<JobArgs>({
    name: 'job_kill',
    description: 'Stop a background Bash job and every process it started.',
    inputSchema: JobSchema,
    capability: BUILTIN_TOOL_META.job_kill,
    execute: (args) =>
      guarded(async () => {
        const { job_id } = parse(JobSchema, args, 'job_kill');
        const before = s.jobs.list().find((j) => j.id === job_id);
        const info = await s.jobs.kill(job_id);
        const value =
          before?.status === 'running'
            ? `Stopped ${info.id}. ${jobState(info)}`
            : `${info.id} was not running. ${jobState(info)}`;
        return success(value, 'text', { text: value }, `Stop ${info.id}`, 'terminal');
      }),
    presentCall: (args) => s.presenters.job_kill.presentCall?.(args),
    presentResult: (args, result) => s.presenters.job_kill.presentResult?.(args, result),
  });
}

const TodoSchema = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe('What to do, imperative ("Run the tests").'),
        status: z.enum(['pending', 'in_progress', 'completed']),
        activeForm: z.string().optional().describe('Shown while in progress ("Running the tests").'),
      }),
    )
    .describe('The complete list; it replaces the previous one.'),
  _intent: intent,
});

/** Creates TodoWrite: replaces the session's todo list; a `table` artifact and a checklist value. */
export function createTodoWriteTool(options: BuiltinToolsOptions): AgentTool<TodoWriteArgs> {
  const s = shared(options);
  return defineTool<TodoWriteArgs>({
    name: 'TodoWrite',
    description:
      'Replace your todo list for this session. Use it for multi-step work: keep exactly one item in_progress and mark items completed as soon as they are done.',
    inputSchema: TodoSchema,
    capability: BUILTIN_TOOL_META.TodoWrite,
    execute: (args) =>
      guarded(async () => {
        const { todos } = parse(TodoSchema, args, 'TodoWrite');
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
      }),
    presentCall: (args) => s.presenters.TodoWrite.presentCall?.(args),
    presentResult: (args, result) => s.presenters.TodoWrite.presentResult?.(args, result),
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
  /** Kills every background job still running (call it when the session ends). */
  dispose(): Promise<void>;
}

/** Creates every built-in tool over one shared workspace, background-job table and todo list. */
export function createBuiltinToolkit(options: BuiltinToolsOptions): BuiltinToolkit {
  const s = shared(options);
  const common: BuiltinToolsOptions = { ...options, workspace: s.workspace, jobs: s.jobs, todos: s.todos };
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
  return { tools, workspace: s.workspace, jobs: s.jobs, todos: s.todos, dispose: () => s.jobs.dispose() };
}

/**
 * Every built-in tool, sharing one workspace, one background-job table and one todo list:
 * Read, Write, Edit, Glob, Grep, Bash, TodoWrite, job_output, job_kill. Pass your own `jobs`
 * to dispose of background jobs at session end (or use {@link createBuiltinToolkit}).
 */
export function builtinTools(options: BuiltinToolsOptions): AgentTool[] {
  return createBuiltinToolkit(options).tools;
}
