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
  /** Whether `--mode` was given (otherwise settings files or the config may choose the mode). */
  modeExplicit: boolean;
  /** `--trust`: trust this workspace's project settings (remembered). */
  trust: boolean;
  /** `--resume <id>`: the id; `--resume` alone: `''` (pick one); not given: null. */
  resume: string | null;
  /** `--continue` / `-c`: resume the last session of this folder. */
  continue: boolean;
  json: boolean;
  verbose: boolean;
  dataDir: string | null;
  script: string | null;
  noColor: boolean;
  /** `--system-prompt <text>`: replaces the built-in system prompt. */
  systemPrompt: string | null;
  /** `--append-system-prompt <text>`: appended to the system prompt. */
  appendSystemPrompt: string | null;
  /** `--stall-timeout <seconds>`: end a model request that sends no bytes for this long. */
  stallTimeoutSeconds: number | null;
  /** `--context-window <tokens>`: the model's context window, overriding table, server and config. */
  contextWindow: number | null;
  /** `--mcp-config <file>` (repeatable): MCP server files loaded without asking. */
  mcpConfig: string[];
  /** `--approve-mcp <name>` (repeatable; `all`): project MCP servers approved for this workspace (remembered). */
  approveMcp: string[];
}

/** A command-line error with the one line shown to the user (exit status 2). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** The hint printed under a usage error. */
export const USAGE_HINT = "Try 'codeagent --help' for the options.";

/** Exit statuses, as `--help` states them. */
export const EXIT = Object.freeze({
  completed: 0,
  error: 1,
  usage: 2,
  stopped: 3,
  interrupted: 130,
});

/** Usage text for `codeagent --help`. */
export const USAGE = `Usage:
  codeagent                     interactive session (REPL)
  codeagent -p "<prompt>"       one turn; only the answer goes to stdout (pipe it), progress to stderr
  codeagent demo                scripted demo on a temporary copy of a sample workspace (no network, no keys)
  codeagent acp                 serve the Agent Client Protocol over stdio (for editors: Zed, JetBrains, Neovim...)

Model (else $CODEAGENT_* variables, else ~/.codeagent/config.json):
      --provider <name>   openai-compatible | openai | anthropic | scripted
      --model <id>        model id
      --base-url <url>    base URL for openai-compatible providers (Ollama, vLLM, LM Studio...)
      --script <file>     JSON script for the scripted provider (tests, demos)
      --context-window <n>  the model's context window in tokens
      --stall-timeout <s> end a model request that sends nothing for s seconds (default 120; 0 = never)

Session:
      --cwd <dir>         workspace directory (default: current directory)
      --mode <mode>       permission mode: ${PERMISSION_MODES.join(' | ')} (default: settings, else default)
      --trust             trust this workspace: its .codeagent/settings may widen permissions (remembered)
  -c, --continue          resume the last session of this folder
      --resume [id]       resume a saved session (id or file); without an id, pick one from a list
      --system-prompt <text>         replace the built-in system prompt
      --append-system-prompt <text>  add text to the end of the system prompt
      --data-dir <dir>    where sessions are saved (default: $CODEAGENT_HOME or ~/.codeagent)

MCP servers (also ~/.codeagent/mcp.json and the project's .mcp.json; /mcp lists them):
      --mcp-config <file>  load the MCP servers of a file (.mcp.json format) without asking; repeatable
      --approve-mcp <name> start this server of the project's .mcp.json (remembered per workspace;
                           a changed entry asks again); repeatable; 'all' for every one

Output:
      --json              -p writes the event stream as NDJSON to stdout (first line: the session)
      --verbose           -p also writes banner, tool cards and footer to stderr (shown anyway on a terminal)
      --no-color          disable colours (NO_COLOR is honoured too)
  -h, --help              this help
  -v, --version           print the version

Exit status: 0 completed, 1 error, 2 usage error or no model configured,
             3 a tool call was denied or the run stopped early (truncated, max turns...), 130 interrupted.`;

type OptionKind = 'string' | 'boolean' | 'optional-string' | 'list';

/** Every option: long name -> kind, and the short aliases. */
const OPTIONS: Readonly<Record<string, OptionKind>> = Object.freeze({
  prompt: 'string',
  provider: 'string',
  model: 'string',
  'base-url': 'string',
  script: 'string',
  cwd: 'string',
  mode: 'string',
  trust: 'boolean',
  resume: 'optional-string',
  continue: 'boolean',
  json: 'boolean',
  verbose: 'boolean',
  'data-dir': 'string',
  'no-color': 'boolean',
  'system-prompt': 'string',
  'append-system-prompt': 'string',
  'stall-timeout': 'string',
  'context-window': 'string',
  'mcp-config': 'list',
  'approve-mcp': 'list',
  help: 'boolean',
  version: 'boolean',
});

const SHORT: Readonly<Record<string, string>> = Object.freeze({
  p: 'prompt',
  c: 'continue',
  h: 'help',
  v: 'version',
});

/** Quotes a user-typed token for a message: bounded, control and bidi characters made visible. */
function shown(token: string): string {
  const visible = token.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${visible.length > 60 ? `${visible.slice(0, 60)}…` : visible}"`;
}

/** Long option names, for "did you mean". */
function suggestion(name: string): string {
  const close = Object.keys(OPTIONS).find(
    (option) => option.startsWith(name.slice(0, 3)) && Math.abs(option.length - name.length) <= 3,
  );
  return close === undefined ? '' : ` (did you mean --${close}?)`;
}

interface RawArgs {
  values: Map<string, string | true>;
  lists: Map<string, string[]>;
  positionals: string[];
}

/** Splits argv into options and positionals; every failure is a one-line {@link CliUsageError}. */
function tokenize(argv: readonly string[]): RawArgs {
  const values = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const positionals: string[] = [];
  const set = (name: string, value: string | true) => {
    if (OPTIONS[name] === 'list' && typeof value === 'string') {
      if (value.trim() === '') throw new CliUsageError(`--${name} needs a value`);
      lists.set(name, [...(lists.get(name) ?? []), value]);
      return;
    }
    if (values.has(name)) throw new CliUsageError(`--${name} given twice`);
    values.set(name, value);
  };
  for (let i = 0; i < argv.length; i += 1) {
    const token = String(argv[i]);
    if (token === '--') {
      positionals.push(...argv.slice(i + 1).map(String));
      break;
    }
    let name: string;
    let inline: string | undefined;
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      name = eq === -1 ? token.slice(2) : token.slice(2, eq);
      inline = eq === -1 ? undefined : token.slice(eq + 1);
      if (!Object.hasOwn(OPTIONS, name)) {
        throw new CliUsageError(`unknown option ${shown(`--${name}`)}${suggestion(name)}`);
      }
    } else if (token.startsWith('-') && token.length > 1) {
      const letter = token.slice(1, 2);
      const long = Object.hasOwn(SHORT, letter) ? SHORT[letter] : undefined;
      if (long === undefined) throw new CliUsageError(`unknown option ${shown(token)}`);
      name = long;
      if (token.length > 2) {
        if (OPTIONS[name] === 'boolean') throw new CliUsageError(`unknown option ${shown(token)}`);
        inline = token.slice(2);
      }
    } else {
      positionals.push(token);
      continue;
    }
    const kind = OPTIONS[name];
    const typed = token.startsWith('--') ? `--${name}` : token.slice(0, 2);
    if (kind === 'boolean') {
      if (inline !== undefined) throw new CliUsageError(`${typed} takes no value`);
      set(name, true);
    } else if (inline !== undefined) {
      set(name, inline);
    } else {
      const next = argv[i + 1];
      const needsValue = kind === 'string' || kind === 'list';
      const takesNext = next !== undefined && (needsValue ? true : !String(next).startsWith('-'));
      if (needsValue && (next === undefined || (String(next).startsWith('--') && next !== '--'))) {
        throw new CliUsageError(`${typed} needs a value`);
      }
      if (takesNext && next !== undefined) {
        set(name, String(next));
        i += 1;
      } else set(name, '');
    }
  }
  return { values, lists, positionals };
}

function positiveNumber(value: string | null, flag: string, options: { allowZero: boolean }): number | null {
  if (value === null) return null;
  const n = /^\d+(\.\d+)?$/u.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !options.allowZero) || n > 1e9) {
    throw new CliUsageError(
      `--${flag} needs a ${options.allowZero ? 'non-negative' : 'positive'} number, got ${shown(value)}`,
    );
  }
  return n;
}

/** Parses argv (without node and script) into {@link CliOptions}; throws {@link CliUsageError} on bad input. */
export function parseCliArgs(argv: readonly string[], cwd: string): CliOptions {
  const { values, lists, positionals } = tokenize(argv);
  const str = (name: string): string | null => {
    const value = values.get(name);
    return typeof value === 'string' ? value : null;
  };
  const flag = (name: string): boolean => values.get(name) === true;
  const modeText = str('mode');
  if (modeText !== null && !isMode(modeText)) {
    throw new CliUsageError(
      `unknown --mode ${shown(modeText)} (expected one of ${PERMISSION_MODES.join(', ')})`,
    );
  }
  const mode = modeText !== null && isMode(modeText) ? modeText : null;
  let command: CliOptions['command'] = 'repl';
  if (flag('help')) command = 'help';
  else if (flag('version')) command = 'version';
  else if (values.has('prompt')) command = 'prompt';
  const [first, ...rest] = positionals;
  if (command === 'repl' && first !== undefined) {
    if (first === 'demo' || first === 'acp') command = first;
    else
      throw new CliUsageError(
        `unknown command ${shown(first)} (to send a prompt, use -p ${shown(positionals.join(' '))})`,
      );
    if (rest[0] !== undefined) throw new CliUsageError(`unexpected argument ${shown(rest[0])}`);
  } else if (command === 'prompt' && first !== undefined) {
    throw new CliUsageError(`unexpected argument ${shown(first)} (quote the whole prompt after -p)`);
  }
  const prompt = str('prompt');
  if (command === 'prompt' && (prompt ?? '').trim() === '') {
    throw new CliUsageError('-p needs a non-empty prompt');
  }
  const resume = values.has('resume') ? (str('resume') ?? '') : null;
  if (resume !== null && flag('continue'))
    throw new CliUsageError('use either --continue or --resume, not both');
  if (flag('json') && command !== 'prompt' && command !== 'help' && command !== 'version') {
    throw new CliUsageError('--json needs -p "<prompt>"');
  }
  if (resume === '' && command === 'prompt') {
    throw new CliUsageError('--resume needs a session id with -p (or use --continue)');
  }
  return {
    command,
    prompt,
    provider: str('provider'),
    model: str('model'),
    baseUrl: str('base-url'),
    cwd: str('cwd') ?? cwd,
    mode: mode ?? 'default',
    modeExplicit: mode !== null,
    trust: flag('trust'),
    resume,
    continue: flag('continue'),
    json: flag('json'),
    verbose: flag('verbose'),
    dataDir: str('data-dir'),
    script: str('script'),
    noColor: flag('no-color'),
    systemPrompt: str('system-prompt'),
    appendSystemPrompt: str('append-system-prompt'),
    stallTimeoutSeconds: positiveNumber(str('stall-timeout'), 'stall-timeout', { allowZero: true }),
    contextWindow: (() => {
      const n = positiveNumber(str('context-window'), 'context-window', { allowZero: false });
      if (n !== null && !Number.isInteger(n))
        throw new CliUsageError('--context-window needs a whole number of tokens');
      return n;
    })(),
    mcpConfig: lists.get('mcp-config') ?? [],
    approveMcp: lists.get('approve-mcp') ?? [],
  };
}

function isMode(value: string): value is CliPermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}
