import { join } from 'node:path';
import { assertNever } from '@codeagent/render-intent';
import {
  type AttachedMcpServers,
  attachMcpServers,
  collectMcpServers,
  type McpAttachTarget,
  McpApprovalStore,
  type McpAuthorizationRequest,
  type McpElicitAnswer,
  type McpElicitation,
  McpFileOAuthStore,
  type McpOAuthOptions,
  type McpServerConnection,
  type McpServerPolicy,
  type McpServerSource,
  type McpSlashCommand,
  mcpSlashCommands,
  mcpSourcePolicy,
} from '@codeagent/adapter-mcp';
import { clean } from './clean.js';
import type { Key, KeyInput } from './keys.js';
import { LoopbackSignIn, openInBrowser } from './mcp-auth.js';
import { NO_MCP_SERVERS, USER_MCP_FILE } from './mcp-lazy.js';

/** Where the answers about project servers are kept (the data dir; never the project). */
export const MCP_APPROVALS_FILE = 'mcp-approvals.json';
/** Where OAuth tokens of MCP servers are kept (the data dir, 0600). */
export const MCP_TOKENS_FILE = 'mcp-tokens.json';

/** How the CLI talks to the user mid-session (a terminal); absent in `-p`, `--json` and piped runs. */
export interface McpUserIO {
  readonly stdout: NodeJS.WritableStream;
  readonly keys: KeyInput;
  readonly color: boolean;
  /** Runs a question while a turn may be running: the spinner stops, typed keys go to the question. */
  readonly question: <T>(ask: () => Promise<T>) => Promise<T>;
}

/** Why a configured server is not running. */
type Held = 'not approved' | 'denied';

/** One configured server and where it stands. */
interface Entry {
  readonly source: McpServerSource;
  /** Its policy (trust, capabilities) from a file the user controls; `undefined`: every tool `exec`. */
  readonly policy: McpServerPolicy | undefined;
  held: Held | null;
  connection: McpServerConnection | null;
  attached: AttachedMcpServers | null;
}

/** How the CLI asks about one project server: `approved`/`denied` are remembered, `skip` is not. */
export type McpAsk = (source: McpServerSource) => Promise<'approved' | 'denied' | 'skip'>;

/** Options of {@link CliMcp.start}. */
export interface CliMcpOptions {
  /** Workspace folder (where the project's `.mcp.json` is looked for, up to the repository root). */
  readonly cwd: string;
  /** The CLI's data dir: `mcp.json` (the user's servers) and `mcp-approvals.json` live here. */
  readonly dataDir: string;
  /** `--mcp-config` files, in order (loaded without asking: the user named them). */
  readonly explicitFiles: readonly string[];
  /** `--approve-mcp` names (`all`: every server of the project's `.mcp.json`): approved and remembered. */
  readonly approve: readonly string[];
  /** Asks about a project server not seen before; without it (`-p`, no terminal) such a server is not started. */
  readonly ask?: McpAsk | undefined;
  /** One line for the user: progress, or (`warn`) something that did not start or was not read. */
  readonly note: (line: string, warn: boolean) => void;
  /** The environment for `${VAR}` expansion. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The terminal, for sign-ins and servers' questions; without it sign-ins fail and questions are declined. */
  readonly user?: McpUserIO | undefined;
}

/**
 * The MCP servers of a CLI session: from `--mcp-config` files, the user's `<data-dir>/mcp.json` and the project's
 * `.mcp.json`. A project server starts only when the user approved exactly its entry for this workspace (asked once on a
 * terminal, or `--approve-mcp`); the answer is kept in the data dir. Its tools are registered with the session, so
 * the permission gate governs them like any tool.
 */
export class CliMcp {
  readonly #entries: Entry[];
  readonly #target: McpAttachTarget;
  readonly #store: McpApprovalStore;
  readonly #workspace: string | null;
  readonly #connection: Pick<McpToolOptionsLike, 'oauth' | 'elicit'>;
  readonly #loopback: LoopbackSignIn | null;
  #commands: McpSlashCommand[] | null = null;

  private constructor(
    target: McpAttachTarget,
    entries: Entry[],
    store: McpApprovalStore,
    workspace: string | null,
    connection: Pick<McpToolOptionsLike, 'oauth' | 'elicit'>,
    loopback: LoopbackSignIn | null,
  ) {
    this.#target = target;
    this.#entries = entries;
    this.#store = store;
    this.#workspace = workspace;
    this.#connection = connection;
    this.#loopback = loopback;
  }

  /** Reads the config, settles which project servers may start (asking when it can), and starts them. */
  static async start(target: McpAttachTarget, options: CliMcpOptions): Promise<CliMcp> {
    const collected = collectMcpServers({
      cwd: options.cwd,
      explicitFiles: options.explicitFiles,
      userFile: join(options.dataDir, USER_MCP_FILE),
      env: options.env,
    });
    for (const w of collected.warnings) options.note(`mcp: ${clean(w)}`, true);
    const store = new McpApprovalStore(join(options.dataDir, MCP_APPROVALS_FILE));
    const workspace = collected.workspace;
    const approveAll = options.approve.includes('all');
    const projectNames = new Set(collected.servers.filter((s) => s.scope === 'project').map((s) => s.name));
    for (const name of options.approve) {
      if (name !== 'all' && !projectNames.has(name)) {
        options.note(
          `mcp: --approve-mcp ${clean(name)}: no such server in ${collected.projectFile === null ? 'this project (it has no .mcp.json)' : clean(collected.projectFile)}`,
          true,
        );
      }
    }
    const entries: Entry[] = [];
    for (const source of collected.servers) {
      const found = mcpSourcePolicy(source);
      if (found.warning !== undefined) options.note(`mcp: ${clean(found.warning)}`, true);
      if (found.error !== undefined) {
        options.note(`mcp: ${clean(found.error)}`, true);
        continue;
      }
      const entry: Entry = { source, policy: found.policy, held: null, connection: null, attached: null };
      entries.push(entry);
      if (source.scope !== 'project' || workspace === null) continue;
      if (approveAll || options.approve.includes(source.name)) {
        await store.record(workspace, source.name, source.fingerprint, 'approved');
        options.note(`mcp: approved ${describeServer(source)} for ${clean(workspace)}`, false);
        continue;
      }
      let decision = await store.decision(workspace, source.name, source.fingerprint);
      if (decision === undefined && options.ask) {
        const answer = await options.ask(source);
        if (answer !== 'skip') {
          await store.record(workspace, source.name, source.fingerprint, answer);
          decision = answer;
        }
      }
      if (decision === 'approved') continue;
      entry.held = decision === 'denied' ? 'denied' : 'not approved';
      options.note(
        `mcp: ${clean(source.name)} of ${clean(source.file)} not started: ${
          decision === 'denied' ? 'you declined it for this workspace' : 'not approved for this workspace'
        } (approve it with --approve-mcp ${clean(source.name)}, or /mcp approve ${clean(source.name)} in the REPL)`,
        true,
      );
    }
    // OAuth sign-ins for HTTP servers that ask for one: a loopback redirect, the URL shown (and opened on a desktop).
    const http = entries.some((e) => e.source.config.type === 'http');
    const loopback = http ? await LoopbackSignIn.start() : null;
    const user = options.user;
    const oauth: McpOAuthOptions | undefined =
      loopback === null
        ? undefined
        : {
            store: new McpFileOAuthStore(join(options.dataDir, MCP_TOKENS_FILE)),
            redirectUrl: loopback.redirectUrl,
            authorize: (request) =>
              user
                ? signIn(user, loopback, request, options.env)
                : Promise.reject(new Error(noTerminal(request))),
          };
    const elicit = async (request: McpElicitation): Promise<McpElicitAnswer> => {
      if (!user) {
        options.note(
          `mcp: ${clean(request.server)} asked "${clean(request.message).slice(0, 120)}": declined (no terminal to ask at)`,
          true,
        );
        return { action: 'decline' };
      }
      return user.question(() => askMcpForm(user, request));
    };
    const mcp = new CliMcp(
      target,
      entries,
      store,
      workspace,
      { ...(oauth ? { oauth } : {}), elicit },
      loopback,
    );
    const starting = entries.filter((e) => e.held === null);
    if (starting.length > 0) {
      await Promise.all(starting.map((e) => mcp.#attach(e)));
      for (const e of starting) {
        const line = await mcp.#statusLine(e);
        options.note(`mcp: ${line}`, e.connection?.state !== 'ready');
      }
    }
    return mcp;
  }

  async #attach(entry: Entry): Promise<void> {
    const attached = await attachMcpServers(
      this.#target,
      { [entry.source.name]: entry.source.config },
      {
        ...this.#connection,
        ...(entry.policy === undefined ? {} : { policies: { [entry.source.name]: entry.policy } }),
      },
    );
    entry.attached = attached;
    entry.connection = attached.connections[0] ?? null;
    this.#commands = null;
  }

  /** Whether any server is configured (for `/mcp` and the help). */
  get configured(): boolean {
    return this.#entries.length > 0;
  }

  /** The running servers' prompts as slash commands (listed once, again after `/mcp approve`). */
  async slashCommands(): Promise<readonly McpSlashCommand[]> {
    this.#commands ??= await mcpSlashCommands(
      this.#entries.flatMap((e) => (e.connection && e.connection.state === 'ready' ? [e.connection] : [])),
    );
    return this.#commands;
  }

  /**
   * `/mcp__<server>__<prompt> args`: the prompt's text for the model, with a label saying what runs; `null` when the
   * line names no MCP prompt. An unknown `mcp__` command or a failing server gives `{error}`.
   */
  async expand(line: string): Promise<{ text: string; label: string } | { error: string } | null> {
    const match = /^\/(mcp__\S+)(?:\s+([\s\S]*))?$/u.exec(line.trim());
    if (match === null) return null;
    const name = match[1] ?? '';
    const args = match[2] ?? '';
    const command = (await this.slashCommands()).find((c) => c.name === name);
    if (command === undefined) return { error: `unknown MCP prompt /${clean(name)} (try /mcp)` };
    try {
      const text = await command.expand(args);
      const shownArgs = args.trim() === '' ? '' : ` with "${clean(args.trim()).slice(0, 60)}"`;
      return { text, label: `running MCP prompt /${clean(name)}${shownArgs}` };
    } catch (error) {
      return { error: clean(error instanceof Error ? error.message : String(error)) };
    }
  }

  /** `/mcp`: every server with its scope, status, tools and prompts. */
  async statusLines(): Promise<string[]> {
    if (this.#entries.length === 0) {
      return [NO_MCP_SERVERS];
    }
    const lines: string[] = [];
    for (const e of this.#entries) lines.push(`  ${await this.#statusLine(e)}`);
    return lines;
  }

  async #statusLine(e: Entry): Promise<string> {
    const s = e.source;
    const where = `${s.scope} · ${clean(s.file)}`;
    if (e.held !== null) {
      return `${clean(s.name)}: ${e.held} (${where}) — /mcp approve ${clean(s.name)} starts it`;
    }
    const c = e.connection;
    if (c === null) return `${clean(s.name)}: not started (${where})`;
    if (c.state === 'failed' || (e.attached?.failures.length ?? 0) > 0) {
      const reason = c.lastError || e.attached?.failures[0]?.reason || 'failed';
      return `${clean(s.name)}: failed: ${clean(reason).slice(0, 200)} (${where})`;
    }
    if (c.state !== 'ready') return `${clean(s.name)}: ${c.state} (${where})`;
    const tools = await c.tools().catch(() => []);
    const prompts = (await this.slashCommands()).filter((p) => p.name.startsWith(`mcp__${s.name}__`));
    return `${clean(s.name)}: ready · ${tools.length} tool${tools.length === 1 ? '' : 's'}${
      prompts.length > 0 ? ` · ${prompts.length} prompt${prompts.length === 1 ? '' : 's'}` : ''
    } (${where})`;
  }

  /** `/mcp approve <name>`: approves a held project server (remembered) and starts it now. */
  async approve(name: string): Promise<string> {
    const e = this.#entries.find((x) => x.source.name === name);
    if (e === undefined) return `no MCP server named ${clean(name)} (see /mcp)`;
    if (e.held === null) return `${clean(name)} is not waiting for approval`;
    if (this.#workspace === null) return `${clean(name)} has no workspace to approve it for`;
    await this.#store.record(this.#workspace, name, e.source.fingerprint, 'approved');
    e.held = null;
    await this.#attach(e);
    return `approved for ${clean(this.#workspace)}: ${await this.#statusLine(e)}`;
  }

  /**
   * Signals every running stdio server at once (the exit hook after a signal, which cannot wait for
   * {@link close}); returns how many were still running.
   */
  kill(signal: NodeJS.Signals | 0): number {
    let alive = 0;
    for (const e of this.#entries) {
      const pid = e.connection?.pid ?? null;
      if (pid === null) continue;
      try {
        process.kill(pid, signal);
        alive += 1;
      } catch {
        // already gone
      }
    }
    return alive;
  }

  /**
   * Stops every server: stdin closed, then SIGTERM (the SDK's order); one still running after `graceMs` is killed, so
   * leaving never waits long for a server that ignores both.
   */
  async close(graceMs = 1000): Promise<void> {
    // The ids first: closing forgets them.
    const pids = this.#entries.map((e) => e.connection?.pid ?? null);
    const closing = Promise.all(this.#entries.map((e) => e.attached?.close()));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    if ((await Promise.race([closing, late])) === 'late') {
      for (const pid of pids) {
        if (pid === null) continue;
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await closing;
    }
    clearTimeout(timer);
    await this.#loopback?.close();
  }
}

/** `name: command args` or `name: url`, as one cleaned line. */
export function describeServer(source: McpServerSource): string {
  const c = source.config;
  if (c.type === 'http') return `${clean(source.name)} (${clean(c.url)})`;
  const words = [c.command, ...(c.args ?? [])].map(shellWord);
  return `${clean(source.name)} (${clean(words.join(' ')).slice(0, 300)})`;
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/u.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The ask-once prompt for a project server: what the file asks to run (the command with its arguments, the env and
 * headers as written, so no secret of the environment is shown), and a keystroke: `y` approves and remembers, `n`
 * declines and remembers, Esc or Ctrl+C skips it for this run only.
 */
export function askMcpApproval(
  io: { stdout: NodeJS.WritableStream; keys: KeyInput },
  color: boolean,
): McpAsk {
  const b = (s: string) => (color ? `\u001b[1m${s}\u001b[0m` : s);
  return async (source) => {
    const c = source.config;
    const out = (s: string) => io.stdout.write(`${s}\n`);
    out(`${b("This project's .mcp.json wants to start an MCP server:")} ${clean(source.file)}`);
    if (c.type === 'http') {
      out(`  ${clean(source.name)}: Streamable HTTP ${clean(c.url)}`);
    } else {
      out(`  ${clean(source.name)}: runs ${clean([c.command, ...(c.args ?? [])].map(shellWord).join(' '))}`);
      if (c.cwd) out(`    in ${clean(c.cwd)}`);
    }
    for (const key of ['env', 'headers'] as const) {
      const table = source.entry[key];
      if (typeof table !== 'object' || table === null) continue;
      const pairs = Object.entries(table as Record<string, unknown>).map(
        ([k, v]) => `${clean(k)}=${clean(String(v)).slice(0, 120)}`,
      );
      if (pairs.length > 0) out(`    ${key} (as written): ${pairs.join(' ')}`);
    }
    out(
      'It runs with your permissions. Approve only servers you trust (a cloned repository can ship this file).',
    );
    io.stdout.write(
      `${b(`Start ${clean(source.name)}?`)}  ${b('[y]')} yes, remember for this workspace  ${b('[n]')} no, remember  ${b('[Esc]')} not now  `,
    );
    const answer = await new Promise<'approved' | 'denied' | 'skip'>((done) => {
      const release = io.keys.capture((key) => {
        const name = (key.name ?? key.sequence ?? '').toLowerCase();
        let result: 'approved' | 'denied' | 'skip' | undefined;
        if (name === 'y') result = 'approved';
        else if (name === 'n') result = 'denied';
        else if (name === 'escape' || (key.ctrl && key.name === 'c')) result = 'skip';
        if (result === undefined) return;
        release();
        done(result);
      });
    });
    out(
      answer === 'approved'
        ? 'approved'
        : answer === 'denied'
          ? 'declined (remembered)'
          : 'not started this time',
    );
    return answer;
  };
}

type McpToolOptionsLike = Parameters<typeof attachMcpServers>[2] & object;

function noTerminal(request: McpAuthorizationRequest): string {
  return `MCP server ${request.server} needs you to sign in, and there is no terminal to do it: run codeagent in a terminal once (the tokens are kept for later runs)`;
}

/** One sign-in: the URL on the screen (and in the browser on a desktop); Esc cancels; 5 minutes at most. */
async function signIn(
  user: McpUserIO,
  loopback: LoopbackSignIn,
  request: McpAuthorizationRequest,
  env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>,
): Promise<string> {
  return user.question(async () => {
    const b = (s: string) => (user.color ? `\u001b[1m${s}\u001b[0m` : s);
    user.stdout.write(
      `${b(`MCP server ${clean(request.server)} asks you to sign in.`)} Open this address in a browser (Esc cancels):\n  ${clean(request.url.href)}\n`,
    );
    openInBrowser(request.url, env as NodeJS.ProcessEnv);
    const cancel = new AbortController();
    const release = user.keys.capture((key: Key) => {
      if (key.name === 'escape' || (key.ctrl && key.name === 'c')) cancel.abort();
    });
    try {
      const code = await loopback.wait(request, { timeoutMs: 5 * 60_000, signal: cancel.signal });
      user.stdout.write(`signed in to ${clean(request.server)}\n`);
      return code;
    } catch (error) {
      user.stdout.write(`not signed in: ${clean((error as Error).message)}\n`);
      throw error;
    } finally {
      release();
    }
  });
}

/** Reads one line from raw keys: printable text, Backspace, Enter; Esc (decline) or Ctrl+C (cancel) give `null`. */
function readLine(user: McpUserIO): Promise<{ text: string } | { stop: 'decline' | 'cancel' }> {
  return new Promise((resolve) => {
    let text = '';
    const release = user.keys.capture((key: Key) => {
      if (key.name === 'return' || key.name === 'enter') {
        release();
        user.stdout.write('\n');
        resolve({ text });
      } else if (key.name === 'escape' || (key.ctrl && key.name === 'c')) {
        release();
        user.stdout.write('\n');
        resolve({ stop: key.name === 'escape' ? 'decline' : 'cancel' });
      } else if (key.name === 'backspace') {
        if (text.length > 0) {
          text = text.slice(0, -1);
          user.stdout.write('\b \b');
        }
      } else if (!key.ctrl && key.sequence && /^[^\u0000-\u001f\u007f]+$/u.test(key.sequence)) {
        text += key.sequence;
        user.stdout.write(clean(key.sequence));
      }
    });
  });
}

/**
 * A server's form, asked field by field: the cleaned message, then each field with its type, choices, default and
 * whether it is required; an empty line leaves a field out (its default applies). Esc declines the whole form,
 * Ctrl+C cancels it; nothing is sent until the user confirms.
 */
export async function askMcpForm(user: McpUserIO, request: McpElicitation): Promise<McpElicitAnswer> {
  const b = (s: string) => (user.color ? `\u001b[1m${s}\u001b[0m` : s);
  const out = (s: string) => user.stdout.write(s);
  out(`\n${b(`MCP server ${clean(request.server)} asks:`)} ${clean(request.message)}\n`);
  out('(Enter leaves a field empty, Esc declines, Ctrl+C cancels)\n');
  const content: Record<string, string | number | boolean> = {};
  for (const f of request.fields) {
    const hints = [
      f.type === 'boolean' ? 'y/n' : f.enum ? `one of ${f.enum.map(clean).join(', ')}` : f.type,
      ...(f.default !== undefined ? [`default ${clean(String(f.default))}`] : []),
      ...(f.required ? ['required'] : []),
    ];
    for (;;) {
      out(
        `  ${b(clean(f.title))}${f.description ? ` (${clean(f.description).slice(0, 200)})` : ''} [${hints.join(', ')}]: `,
      );
      const line = await readLine(user);
      if ('stop' in line) {
        out(line.stop === 'decline' ? 'declined\n' : 'cancelled\n');
        return { action: line.stop };
      }
      const text = line.text.trim();
      if (text === '') {
        if (f.required && f.default === undefined) {
          out('  this field is required\n');
          continue;
        }
        break;
      }
      const value = parseField(f.type, f.enum, text);
      if (value === undefined) {
        out(`  not a valid ${f.enum ? 'choice' : f.type}\n`);
        continue;
      }
      content[f.name] = value;
      break;
    }
  }
  out(`${b('Send these answers?')}  ${b('[y]')} send  ${b('[n]')} decline  `);
  const send = await new Promise<boolean>((resolve) => {
    const release = user.keys.capture((key: Key) => {
      const name = (key.name ?? '').toLowerCase();
      if (name !== 'y' && name !== 'n' && name !== 'escape' && !(key.ctrl && name === 'c')) return;
      release();
      resolve(name === 'y');
    });
  });
  out(send ? 'sent\n' : 'declined\n');
  return send ? { action: 'accept', content } : { action: 'decline' };
}

function parseField(
  type: McpElicitation['fields'][number]['type'],
  choices: readonly string[] | undefined,
  text: string,
): string | number | boolean | undefined {
  switch (type) {
    case 'boolean':
      return /^(y|yes|true)$/iu.test(text) ? true : /^(n|no|false)$/iu.test(text) ? false : undefined;
    case 'integer':
    case 'number': {
      const n = /^-?\d+(\.\d+)?$/u.test(text) ? Number(text) : Number.NaN;
      if (!Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) return undefined;
      return n;
    }
    case 'string':
      return choices && !choices.includes(text) ? undefined : text;
    default:
      return assertNever(type, 'parseField');
  }
}
