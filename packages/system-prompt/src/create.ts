import { type GitState, readGitState } from './git.js';
import { type InstructionFile, loadInstructionFiles } from './instructions.js';
import { buildSystemPrompt, type PromptEnvironment } from './prompt.js';

/** Options of {@link createSystemPrompt}. */
export interface CreateSystemPromptOptions {
  /** The working directory. */
  readonly cwd: string;
  /** Names of the tools the model is offered (default: all built-in conventions). */
  readonly tools?: readonly string[] | undefined;
  /** Replaces the built-in role and conventions (`--system-prompt`). */
  readonly override?: string | undefined;
  /** Added at the end (`--append-system-prompt`). */
  readonly append?: string | undefined;
  /** Home directory for `~/.codeagent/AGENTS.md` (default: the OS home); `false` skips the user file. */
  readonly homeDir?: string | false | undefined;
  /** Read git state (default true). */
  readonly git?: boolean | undefined;
  /** The clock, for the date line (default: now). */
  readonly now?: Date | undefined;
  /** Platform name (default `process.platform`). */
  readonly platform?: string | undefined;
  /** Shell name for the environment block (default: `$SHELL`'s last path segment, when set). */
  readonly shell?: string | undefined;
  /** Per-file byte cap of the instruction files. */
  readonly maxFileBytes?: number | undefined;
  /** Byte cap over all instruction files. */
  readonly maxTotalBytes?: number | undefined;
  /** Product name for the role line (default `codeagent`). */
  readonly agentName?: string | undefined;
}

/** The built prompt and what went into it, for hosts that show or log it. */
export interface CreatedSystemPrompt {
  /** The system prompt text. */
  readonly text: string;
  /** Its size in UTF-8 bytes. */
  readonly bytes: number;
  /** The instruction files included, in order. */
  readonly instructions: readonly InstructionFile[];
  /** Files skipped or cut, one line each (show them to the user). */
  readonly warnings: readonly string[];
  /** Repository state, or null. */
  readonly git: GitState | null;
}

/** `YYYY-MM-DD` of a date in local time. */
function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Gathers the environment (cwd, platform, date, git state) and the instruction files, and builds the system
 * prompt every codeagent host sends (the CLI, the web host and the ACP agent alike).
 */
export async function createSystemPrompt(options: CreateSystemPromptOptions): Promise<CreatedSystemPrompt> {
  const [loaded, git] = await Promise.all([
    loadInstructionFiles({
      cwd: options.cwd,
      homeDir: options.homeDir,
      maxFileBytes: options.maxFileBytes,
      maxTotalBytes: options.maxTotalBytes,
    }),
    options.git === false ? Promise.resolve(null) : readGitState(options.cwd),
  ]);
  const shellPath = options.shell ?? process.env.SHELL;
  const environment: PromptEnvironment = {
    cwd: options.cwd,
    platform: options.platform ?? process.platform,
    date: localDate(options.now ?? new Date()),
    shell: shellPath ? shellPath.split(/[\\/]/u).pop() : undefined,
    git,
  };
  const text = buildSystemPrompt({
    environment,
    instructions: loaded.files,
    tools: options.tools,
    override: options.override,
    append: options.append,
    agentName: options.agentName,
  });
  return { text, bytes: Buffer.byteLength(text), instructions: loaded.files, warnings: loaded.warnings, git };
}

/** Makes a file label or warning safe to show in a terminal: control and bidi characters become `\uXXXX`, 200 characters at most. */
export function displaySafe(text: string): string {
  const visible = String(text).replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return visible.length > 200 ? `${visible.slice(0, 199)}…` : visible;
}
