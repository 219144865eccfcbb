import { join } from 'node:path';
import {
  type AttachedMcpServers,
  attachMcpServers,
  collectMcpServers,
  type McpAttachTarget,
  McpApprovalStore,
  type McpServerConnection,
  type McpServerSource,
  type McpSlashCommand,
  mcpSlashCommands,
} from '@codeagent/adapter-mcp';
import { clean } from './clean.js';
import type { KeyInput } from './keys.js';

/** The user's own MCP file in the data dir (the `.mcp.json` format). */
export const USER_MCP_FILE = 'mcp.json';
/** Where the answers about project servers are kept (the data dir; never the project). */
export const MCP_APPROVALS_FILE = 'mcp-approvals.json';

/** Why a configured server is not running. */
type Held = 'not approved' | 'denied';

/** One configured server and where it stands. */
interface Entry {
  readonly source: McpServerSource;
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
  #commands: McpSlashCommand[] | null = null;

  private constructor(
    target: McpAttachTarget,
    entries: Entry[],
    store: McpApprovalStore,
    workspace: string | null,
  ) {
    this.#target = target;
    this.#entries = entries;
    this.#store = store;
    this.#workspace = workspace;
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
      const entry: Entry = { source, held: null, connection: null, attached: null };
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
    const mcp = new CliMcp(target, entries, store, workspace);
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
    const attached = await attachMcpServers(this.#target, { [entry.source.name]: entry.source.config });
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
      return [
        'no MCP servers configured (.mcp.json in the project, ~/.codeagent/mcp.json, or --mcp-config <file>)',
      ];
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
