import { parseArgs } from 'node:util';

/** Permission modes the CLI accepts for `--mode` (the permission-gate vocabulary). */
export const PERMISSION_MODES = ['default', 'plan', 'accept_edits', 'bypass', 'dont_ask'] as const;
/** One permission mode name. */
export type CliPermissionMode = (typeof PERMISSION_MODES)[number];

/** What the command line asked for. */
export interface CliOptions {
  command: 'repl' | 'prompt' | 'demo' | 'acp' | 'help' | 'version';
  prompt: string | null;
  provider: string | null;
  model: string | null;
  baseUrl: string | null;
  cwd: string;
  mode: CliPermissionMode;
  /** Whether `--mode` was given (otherwise settings files may choose the mode). */
  modeExplicit: boolean;
  /** `--trust`: trust this workspace's project settings (remembered). */
  trust: boolean;
  resume: string | null;
  json: boolean;
  dataDir: string | null;
  script: string | null;
  noColor: boolean;
}

/** A command-line error with the text shown to the user (exit status 2). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** Usage text for `codeagent --help`. */
export const USAGE = `Usage:
  codeagent                     interactive session (REPL)
  codeagent -p "<prompt>"       one turn, then exit with a status (0 completed, 1 error, 3 denied/other stop)
  codeagent demo                scripted demo on a temporary copy of a sample workspace (no network, no keys)
  codeagent acp                 serve the Agent Client Protocol over stdio (for editors: Zed, JetBrains, Neovim...)

Options:
  -p, --prompt <text>     run one turn non-interactively
      --provider <name>   openai-compatible | openai | anthropic | scripted (default: from env, else scripted demo)
      --model <id>        model id
      --base-url <url>    base URL for openai-compatible providers (Ollama, vLLM, LM Studio...)
      --script <file>     JSON script for the scripted provider
      --cwd <dir>         workspace directory (default: current directory)
      --mode <mode>       permission mode: ${PERMISSION_MODES.join(' | ')} (default: settings, else default)
      --trust             trust this workspace: its .codeagent/settings may widen permissions (remembered)
      --resume <id>       resume a saved session (id or path to a session file)
      --json              write the event stream as NDJSON to stdout
      --data-dir <dir>    where sessions are saved (default: $CODEAGENT_HOME or ~/.codeagent)
      --no-color          disable colours (NO_COLOR is honoured too)
  -h, --help              this help
  -v, --version           print the version`;

/** Parses argv (without node and script) into {@link CliOptions}; throws {@link CliUsageError} on bad input. */
export function parseCliArgs(argv: readonly string[], cwd: string): CliOptions {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const mode = values.mode ?? 'default';
  if (!isMode(mode)) {
    throw new CliUsageError(`unknown --mode "${mode}" (expected one of ${PERMISSION_MODES.join(', ')})`);
  }
  let command: CliOptions['command'] = 'repl';
  if (values.help) command = 'help';
  else if (values.version) command = 'version';
  else if (values.prompt !== undefined) command = 'prompt';
  const [first, ...rest] = positionals;
  if (command === 'repl' && first !== undefined) {
    if (first === 'demo' || first === 'acp') command = first;
    else throw new CliUsageError(`unknown command "${first}" (try codeagent --help)`);
    if (rest.length > 0) throw new CliUsageError(`unexpected argument "${rest[0]}"`);
  } else if (command !== 'repl' && first !== undefined && command !== 'help' && command !== 'version') {
    throw new CliUsageError(`unexpected argument "${first}"`);
  }
  if (command === 'prompt' && (values.prompt ?? '').trim() === '') {
    throw new CliUsageError('-p needs a non-empty prompt');
  }
  return {
    command,
    prompt: values.prompt ?? null,
    provider: values.provider ?? null,
    model: values.model ?? null,
    baseUrl: values['base-url'] ?? null,
    cwd: values.cwd ?? cwd,
    mode,
    modeExplicit: values.mode !== undefined,
    trust: values.trust ?? false,
    resume: values.resume ?? null,
    json: values.json ?? false,
    dataDir: values['data-dir'] ?? null,
    script: values.script ?? null,
    noColor: values['no-color'] ?? false,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      prompt: { type: 'string', short: 'p' },
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      script: { type: 'string' },
      cwd: { type: 'string' },
      mode: { type: 'string' },
      trust: { type: 'boolean' },
      resume: { type: 'string' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
      'no-color': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

function isMode(value: string): value is CliPermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}
