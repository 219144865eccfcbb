import { appendFileSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, relative as relativePath, resolve as resolvePath } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { clean } from './clean.js';
import { PERMISSION_MODES, type PermissionMode } from '@codeagent/permission-gate';
import { assertNever } from '@codeagent/render-intent';
import { listSkillsMeta, parseSlashCommand } from '@codeagent/skills';
import type { CliHost, HostIO } from './host.js';
import { describeCompaction, formatCost, formatTokens } from './host.js';
import { attachMentions } from './mentions.js';
import type { SessionMcp } from './mcp-lazy.js';
import type { ChosenModel } from './model.js';
import { permissionsCommand, type PermissionsView } from './permissions.js';
import { describeSession } from './picker.js';
import type { SessionStore } from './sessions.js';
import { wrapParts } from './wrap.js';

/** What the REPL needs from the command around it. */
export interface ReplContext {
  host: CliHost;
  io: HostIO;
  stdin: NodeJS.ReadStream;
  store: SessionStore;
  cwd: string;
  color: boolean;
  save: (title: string) => Promise<string>;
  newSession: () => string;
  sessionId: () => string;
  /** Resolves `/model <name>` (a named model of the config file, or a model id on the current server). */
  resolveModel: (name: string) => Promise<ChosenModel>;
  /** Names of the config file's models, for `/model`. */
  modelNames: readonly string[];
  /** Where prompt history persists across runs. */
  historyFile: string;
  /** Rule sources and ignored project entries, for `/permissions`. */
  permissions?: PermissionsView;
  /** The session's MCP servers (`/mcp`, their prompts as slash commands), or `null`. */
  mcp?: SessionMcp | null;
}

/** The built-in slash commands, for `/help`. */
export const SLASH_COMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['/help', 'this list, and the skills you can invoke'],
  ['/compact', 'compact the conversation now; /compact <instructions> says what the summary keeps'],
  ['/mode [name]', `show or set the permission mode (${PERMISSION_MODES.join(', ')})`],
  ['/model [name]', 'show the model, or switch to a named model of the config or a model id'],
  ['/cost', 'tokens and cost of this session'],
  ['/undo', 'restore the files the last turn changed (Write/Edit; git untouched)'],
  ['/permissions', 'show grants, rules and their files; /permissions revoke <id>|all'],
  ['/sessions', 'list saved sessions with their folder (resume: codeagent --resume, --continue)'],
  ['/clear', 'start a new, empty session (drops session grants)'],
  ['/skills', 'list skills, and the ones skipped with the reason'],
  ['/mcp', 'MCP servers: status, tools and prompts; /mcp approve <name> starts a held project server'],
  ['/exit', 'leave (Ctrl+D too)'],
  ['/<skill> [args]', 'run a skill with arguments'],
  ['/mcp__<server>__<prompt> [args]', "run an MCP server's prompt"],
];

/** The keys of a session, for `/help`. */
const KEYS: ReadonlyArray<readonly [string, string]> = [
  ['Esc, Ctrl+C', 'interrupt the turn (Ctrl+C twice exits)'],
  ['Alt+Enter, \\', 'start another line of the prompt (a paste keeps its lines)'],
  ['Up, Ctrl+R', 'earlier prompts; search them'],
  ['Tab', 'complete commands, skills and paths'],
  ['@path', 'attach a file of the workspace to the prompt'],
];

type LineResult = { kind: 'line'; text: string } | { kind: 'eof' };

/** Bracketed paste on and off: the terminal then marks a paste, so a pasted block keeps every line. */
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';
/** Shift+Enter as terminals with the CSI-u keyboard protocol send it (kitty, foot, WezTerm, iTerm2 option). */
const SHIFT_ENTER_CSI_U = '\u001b[13;2u';
/** Entries kept in the history file. */
const HISTORY_SIZE = 500;

/** Reads `<data-dir>/history` (one JSON string per line, newest last); damaged lines are skipped. */
async function loadHistory(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'string' && value.trim() !== '') entries.push(value);
    } catch {
      // skip a damaged line
    }
  }
  return entries.slice(-HISTORY_SIZE);
}

/** Completes `/commands`, skill names and `@paths` / paths for readline's Tab. */
export async function complete(
  line: string,
  cwd: string,
  commands: readonly string[],
): Promise<[string[], string]> {
  const token = /(\S*)$/u.exec(line)?.[1] ?? '';
  if (line.startsWith('/') && !line.includes(' ')) {
    return [commands.filter((c) => c.startsWith(token)), token];
  }
  const mention = token.startsWith('@');
  const pathPart = mention ? token.slice(1) : token;
  if (!mention && !pathPart.includes('/') && !pathPart.startsWith('.')) return [[], token];
  const slash = pathPart.lastIndexOf('/');
  const dir = slash === -1 ? '' : pathPart.slice(0, slash + 1);
  const base = slash === -1 ? pathPart : pathPart.slice(slash + 1);
  const root = resolvePath(cwd, dir === '' ? '.' : dir);
  if (!isInside(root, cwd)) return [[], token];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const hits = entries
    .filter((e) => e.name.startsWith(base) && (base.startsWith('.') || !e.name.startsWith('.')))
    .slice(0, 200)
    .map((e) => `${mention ? '@' : ''}${dir}${e.name}${e.isDirectory() ? '/' : ''}`)
    .sort();
  return [hits, token];
}

function isInside(child: string, parent: string): boolean {
  const rel = relativePath(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
}

/**
 * Reads one prompt at a time from a TTY (a fresh readline per prompt, so turns can read raw keys in between): a
 * pasted block keeps all its lines (bracketed paste), a line ending in `\` continues on the next, history persists in a file, Tab
 * completes commands, skills and paths.
 */
class TtyLines {
  private history: string[] = [];
  private interruptArmed = false;
  private readonly pending: string[] = [];
  private prefill = '';
  /** The REPL's hold on raw mode, put back after each line is read. */
  rawMode: { reassert: () => void } | undefined;

  constructor(
    private readonly ctx: ReplContext,
    private readonly prompt: string,
    private readonly commands: readonly string[],
  ) {}

  async init(): Promise<void> {
    // readline keeps history newest first.
    this.history = (await loadHistory(this.ctx.historyFile)).reverse();
    await mkdir(dirname(this.ctx.historyFile), { recursive: true }).catch(() => undefined);
  }

  /** The next Ctrl+C at an empty prompt exits (after a turn the user interrupted). */
  arm(): void {
    this.interruptArmed = true;
  }

  /** Whether the next Ctrl+C exits. */
  get armed(): boolean {
    return this.interruptArmed;
  }

  /** Ends a pending read as end of input (a Ctrl+C that arrived as SIGINT asked to exit). */
  cancel(): void {
    this.cancelRead?.();
  }

  private cancelRead: (() => void) | null = null;

  /** Text typed during a turn: complete lines are queued as the next prompts, the rest is typed in for the user. */
  queue(typed: string): void {
    const parts = typed.split(/\r\n|\r|\n/u);
    const rest = parts.pop() ?? '';
    for (const part of parts) if (part.trim() !== '') this.pending.push(part);
    this.prefill = rest;
  }

  private remember(text: string): void {
    const entry = text.trim();
    if (entry === '') return;
    try {
      // Synchronous: `/exit` is remembered even though the process ends right after it.
      appendFileSync(this.ctx.historyFile, `${JSON.stringify(entry)}\n`);
    } catch {
      // history is a convenience: a read-only data dir must not break the session
    }
  }

  read(): Promise<LineResult> {
    const queued = this.pending.shift();
    if (queued !== undefined) {
      this.ctx.io.stdout.write(
        `${this.prompt}${clean(queued)}  ${this.ctx.color ? '\u001b[2m(queued)\u001b[0m' : '(queued)'}\n`,
      );
      this.remember(queued);
      return Promise.resolve({ kind: 'line', text: queued });
    }
    return new Promise((resolve) => {
      const rl: Interface = createInterface({
        input: this.ctx.stdin,
        output: this.ctx.io.stdout,
        terminal: true,
        history: this.history,
        historySize: HISTORY_SIZE,
        removeHistoryDuplicates: true,
        completer: (line: string, callback: (error: null, result: [string[], string]) => void) => {
          complete(line, this.ctx.cwd, this.commands).then(
            (result) => callback(null, result),
            () => callback(null, [[], line]),
          );
        },
      });
      let done = false;
      const collected: string[] = [];
      let inPaste = false;
      /** Set by Alt+Enter / Shift+Enter: the line readline is about to end continues the prompt. */
      let continueLine = false;
      // Ctrl+R: reverse search through the history, as in bash (readline's own key handling pauses meanwhile).
      let search: {
        query: string;
        from: number;
        match: string;
        paused: Array<(...args: unknown[]) => void>;
      } | null = null;
      const find = (query: string, from: number): [number, string] => {
        for (let i = from; i < this.history.length; i += 1) {
          const entry = this.history[i] ?? '';
          if (query === '' || entry.includes(query)) return [i, entry];
        }
        return [-1, ''];
      };
      const drawSearch = () => {
        if (search === null) return;
        const shown = clean(search.match).split('\n');
        const match = `${shown[0] ?? ''}${shown.length > 1 ? ' …' : ''}`;
        const failed = search.from === -1 && search.query !== '' ? 'failing ' : '';
        this.ctx.io.stdout.write(`\r\u001b[2K(${failed}reverse-i-search)'${clean(search.query)}': ${match}`);
      };
      const endSearch = (how: 'submit' | 'edit' | 'cancel') => {
        const current = search;
        if (current === null) return;
        search = null;
        for (const listener of current.paused) this.ctx.stdin.on('keypress', listener);
        this.ctx.io.stdout.write('\r\u001b[2K');
        const match = current.match;
        if (how === 'submit' && match !== '') {
          this.ctx.io.stdout.write(`${this.prompt}${clean(match)}\n`);
          finish({ kind: 'line', text: match });
          return;
        }
        rl.write(null, { ctrl: true, name: 'u' });
        if (how !== 'cancel' && match !== '') {
          if (match.includes('\n')) {
            this.ctx.io.stdout.write(`${this.prompt}${clean(match)}\n`);
            finish({ kind: 'line', text: match });
            return;
          }
          rl.write(match);
        } else rl.prompt(true);
      };
      const onKey = (
        sequence: string | undefined,
        key: { name?: string; ctrl?: boolean; meta?: boolean; sequence?: string } | undefined,
      ) => {
        if (key?.name === 'paste-start') inPaste = true;
        else if (key?.name === 'paste-end') inPaste = false;
        if (search === null) {
          const newline =
            (key?.meta === true && (key.name === 'return' || key.name === 'enter')) ||
            key?.sequence === SHIFT_ENTER_CSI_U;
          if (newline && !inPaste) {
            // Alt+Enter (and Shift+Enter where the terminal tells it apart) starts another line of the prompt,
            // as a trailing backslash does.
            continueLine = true;
            rl.write(null, { ctrl: true, name: 'e' });
            rl.write(null, { name: 'return' });
            return;
          }
          if (key?.ctrl && key.name === 'r' && !inPaste) {
            const paused = this.ctx.stdin.listeners('keypress').filter((l) => l !== onKey) as Array<
              (...args: unknown[]) => void
            >;
            for (const listener of paused) this.ctx.stdin.off('keypress', listener);
            const [from, match] = find('', 0);
            search = { query: '', from, match, paused };
            drawSearch();
          }
          return;
        }
        if (key?.ctrl && key.name === 'r') {
          const [from, match] = find(search.query, search.from + 1);
          if (from !== -1) search = { ...search, from, match };
        } else if (key?.ctrl && (key.name === 'c' || key.name === 'g')) {
          endSearch('cancel');
          return;
        } else if (key?.name === 'return' || key?.name === 'enter') {
          endSearch('submit');
          return;
        } else if (
          key?.name === 'escape' ||
          key?.name === 'left' ||
          key?.name === 'right' ||
          key?.name === 'tab'
        ) {
          endSearch('edit');
          return;
        } else if (key?.name === 'backspace') {
          const query = search.query.slice(0, -1);
          const [from, match] = find(query, 0);
          search = { ...search, query, from, match };
        } else if (sequence !== undefined && !key?.ctrl && /^[^\u0000-\u001f\u007f]+$/u.test(sequence)) {
          const query = search.query + sequence;
          const [from, match] = find(query, Math.max(0, search.from));
          search = { ...search, query, from, match: from === -1 ? search.match : match };
        }
        drawSearch();
      };
      this.ctx.stdin.on('keypress', onKey);
      const finish = (result: LineResult) => {
        if (done) return;
        done = true;
        if (search !== null) for (const listener of search.paused) this.ctx.stdin.on('keypress', listener);
        search = null;
        this.ctx.stdin.off('keypress', onKey);
        this.ctx.io.stdout.write(PASTE_OFF);
        rl.close();
        // Closing the interface left raw mode: the REPL keeps it until the next reader.
        this.rawMode?.reassert();
        if (result.kind === 'line') this.remember(result.text);
        resolve(result);
      };
      const more = () => {
        rl.setPrompt(this.ctx.color ? '\u001b[2m…\u001b[0m ' : '… ');
        rl.prompt();
      };
      rl.on('line', (text) => {
        this.interruptArmed = false;
        if (inPaste) {
          // A line break inside a paste is part of the prompt, not Enter.
          collected.push(text);
          return;
        }
        if (continueLine || text.endsWith('\\')) {
          // A trailing backslash asks for another line.
          collected.push(continueLine ? text : text.slice(0, -1));
          continueLine = false;
          more();
          return;
        }
        collected.push(text);
        finish({ kind: 'line', text: collected.join('\n').replace(/\n+$/u, '') });
      });
      rl.on('close', () =>
        finish(collected.length > 0 ? { kind: 'line', text: collected.join('\n') } : { kind: 'eof' }),
      );
      this.cancelRead = () => finish({ kind: 'eof' });
      rl.on('SIGINT', () => {
        if (rl.line.length > 0 || collected.length > 0) {
          collected.length = 0;
          rl.write(null, { ctrl: true, name: 'u' });
          rl.setPrompt(this.prompt);
          this.ctx.io.stdout.write('\n');
          rl.prompt();
          return;
        }
        if (this.interruptArmed) {
          this.ctx.io.stdout.write('\n');
          finish({ kind: 'eof' });
          return;
        }
        this.interruptArmed = true;
        this.ctx.io.stdout.write('\n(press Ctrl+C again to exit)\n');
        rl.prompt();
      });
      this.ctx.io.stdout.write(PASTE_ON);
      rl.setPrompt(this.prompt);
      rl.prompt();
      if (this.prefill !== '') {
        rl.write(this.prefill);
        this.prefill = '';
      }
    });
  }
}

/** Reads lines from a pipe. */
class PipeLines {
  private readonly iterator: AsyncIterator<string>;

  constructor(stdin: NodeJS.ReadStream) {
    this.iterator = createInterface({ input: stdin, terminal: false })[Symbol.asyncIterator]();
  }

  async read(): Promise<LineResult> {
    const next = await this.iterator.next();
    return next.done ? { kind: 'eof' } : { kind: 'line', text: next.value };
  }
}

/** The interactive loop: prompts, slash commands, skills and turns; returns the exit status. */
export async function runRepl(ctx: ReplContext): Promise<number> {
  const { io } = ctx;
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const promptText = ctx.color ? '\u001b[1;36m›\u001b[0m ' : '› ';
  const { skills } = await listSkillsMeta({ cwd: ctx.cwd }).catch(() => ({ skills: [] }));
  const prompts = (await ctx.mcp?.slashCommands()) ?? [];
  const commands = [
    ...SLASH_COMMANDS.map(([name]) => name.split(' ')[0] ?? name).filter((name) => !name.includes('<')),
    '/quit',
    ...skills.map((skill) => `/${skill.name}`),
    ...prompts.map((prompt) => `/${prompt.name}`),
  ];
  const tty = io.keys.interactive ? new TtyLines(ctx, promptText, commands) : null;
  await tty?.init();
  const lines = tty ?? new PipeLines(ctx.stdin);
  for (const line of wrapParts(
    [
      `session ${ctx.sessionId()}`,
      '/help for commands',
      'Esc or Ctrl+C interrupts a turn, Ctrl+C twice exits',
    ],
    io.stdout.columns ?? 100,
  ))
    out(line);
  // Between a turn and the next prompt the terminal is briefly out of raw mode: a Ctrl+C there arrives as SIGINT.
  const sigint = { exit: false };
  const onSigint = () => {
    if (tty?.armed) {
      sigint.exit = true;
      tty.cancel();
      return;
    }
    tty?.arm();
    io.stdout.write('\n(press Ctrl+C again to exit)\n');
  };
  if (tty !== null) process.on('SIGINT', onSigint);
  // Raw mode from the first prompt to the end: keys typed as a turn ends wait for the next prompt, never echoed.
  const raw = tty === null ? undefined : io.keys.hold?.();
  if (tty !== null) tty.rawMode = raw;
  try {
    return await loop(ctx, lines, tty, sigint);
  } finally {
    raw?.release();
    process.off('SIGINT', onSigint);
  }
}

async function loop(
  ctx: ReplContext,
  lines: TtyLines | PipeLines,
  tty: TtyLines | null,
  sigint: { exit: boolean },
): Promise<number> {
  const { host, io } = ctx;
  const out = (line: string) => io.stdout.write(`${line}\n`);
  for (;;) {
    if (sigint.exit) return 0;
    const next = await lines.read();
    if (next.kind === 'eof') return 0;
    const line = next.text.trim();
    if (line === '') continue;
    let input = line;
    let server = false;
    if (line.startsWith('/')) {
      const handled = await slashCommand(ctx, line);
      if (handled === 'exit') return 0;
      if (handled === 'done') continue;
      input = handled.prompt;
      server = handled.fromServer === true;
      out(ctx.color ? `\u001b[2m${handled.label}\u001b[0m` : handled.label);
    }
    // An MCP prompt's text is the server's: an @path in it attaches nothing.
    const attached = server
      ? { prompt: input, notes: [] }
      : await attachMentions(input, host.toolkit.workspace);
    for (const note of attached.notes) out(ctx.color ? `\u001b[2m${clean(note)}\u001b[0m` : clean(note));
    // Saved before the turn too, so a journal of its steps has a session to rejoin if the process dies.
    await ctx.save(line.slice(0, 80));
    const result = await host.runTurn(attached.prompt);
    if (result.stopReason === 'interrupted') tty?.arm();
    await ctx.save(line.slice(0, 80));
    if (host.exitRequested || sigint.exit) return exitStatusAfterInterrupt(result.stopReason);
    const typed = host.takeTyped();
    if (tty !== null && typed !== '') tty.queue(typed);
  }
}

function exitStatusAfterInterrupt(stopReason: string): number {
  return stopReason === 'interrupted' ? 130 : 0;
}

async function slashCommand(
  ctx: ReplContext,
  line: string,
): Promise<'exit' | 'done' | { prompt: string; label: string; fromServer?: boolean }> {
  const out = (text: string) => ctx.io.stdout.write(`${text}\n`);
  const [command = '', ...rest] = line.split(/\s+/);
  const arg = rest.join(' ').trim();
  switch (command) {
    case '/exit':
    case '/quit':
      return 'exit';
    case '/help': {
      for (const [name, what] of SLASH_COMMANDS)
        out(`  ${name.padEnd(16)}${name.length >= 16 ? '\n                   ' : ' '}${what}`);
      out('keys:');
      for (const [keys, what] of KEYS) out(`  ${keys.padEnd(16)} ${what}`);
      const { skills } = await listSkillsMeta({ cwd: ctx.cwd });
      if (skills.length > 0) {
        out('skills:');
        for (const skill of skills) {
          out(`  /${clean(skill.name).padEnd(15)} ${clean(skill.description)}`);
        }
      }
      const prompts = (await ctx.mcp?.slashCommands()) ?? [];
      if (prompts.length > 0) {
        out('MCP prompts:');
        for (const p of prompts) {
          const hint = p.argumentHint === '' ? '' : ` ${clean(p.argumentHint)}`;
          out(`  /${clean(p.name)}${hint}  ${clean(p.description).slice(0, 100)}`);
        }
      }
      return 'done';
    }
    case '/mcp': {
      if (!ctx.mcp) {
        out('MCP servers are not used in this session');
        return 'done';
      }
      const [sub = '', name = ''] = arg.split(/\s+/u);
      if (sub === 'approve' && name !== '') {
        out(await ctx.mcp.approve(name));
        return 'done';
      }
      if (sub !== '') {
        out('usage: /mcp (list servers) or /mcp approve <name>');
        return 'done';
      }
      for (const l of await ctx.mcp.statusLines()) out(l);
      return 'done';
    }
    case '/compact': {
      // `/compact <instructions>` biases the summary (what to keep, what to focus on), as in Claude Code.
      const decision = await ctx.host.client.compact(arg === '' ? {} : { instructions: arg });
      out(describeCompaction(decision));
      await ctx.save('(compacted)');
      return 'done';
    }
    case '/mode': {
      if (arg === '') {
        out(`mode: ${ctx.host.client.permissionMode}`);
        return 'done';
      }
      if (!(PERMISSION_MODES as readonly string[]).includes(arg)) {
        out(`unknown mode "${clean(arg)}" (one of ${PERMISSION_MODES.join(', ')})`);
        return 'done';
      }
      ctx.host.setMode(arg as PermissionMode);
      out(`mode: ${arg}`);
      return 'done';
    }
    case '/model': {
      if (arg === '') {
        const m = ctx.host.model;
        const price = m.pricing
          ? `$${m.pricing.inputPerMillion}/$${m.pricing.outputPerMillion} per M tokens in/out`
          : 'price unknown';
        out(
          `model ${clean(m.resolved.modelId)} (${m.resolved.provider}) · window ${formatTokens(m.contextWindow)} (${m.windowSource}) · ${price}`,
        );
        if (ctx.modelNames.length > 0) out(`config models: ${ctx.modelNames.map(clean).join(', ')}`);
        return 'done';
      }
      try {
        const next = await ctx.resolveModel(arg);
        ctx.host.switchModel(next);
        out(
          `model ${clean(next.resolved.modelId)} (${next.resolved.provider}) · window ${formatTokens(next.contextWindow)} (${next.windowSource}) · the conversation carries over`,
        );
      } catch (error) {
        out(`cannot switch to ${clean(arg)}: ${clean((error as Error).message)}`);
      }
      return 'done';
    }
    case '/undo': {
      const undone = await ctx.host.checkpoints.undo();
      if (undone === null) {
        out('nothing to undo (no file changes by Write or Edit in this session)');
        return 'done';
      }
      const parts = [
        ...undone.restored.map((f) => `restored ${clean(f)}`),
        ...undone.removed.map((f) => `removed ${clean(f)} (created by that turn)`),
        ...undone.failed.map((f) => `could not restore ${clean(f)}`),
      ];
      out(`undid the file changes of "${clean(undone.label).slice(0, 60)}":`);
      for (const part of parts) out(`  ${part}`);
      out(
        `  (shell commands are not tracked · git untouched · ${ctx.host.checkpoints.depth} more turn(s) can be undone)`,
      );
      return 'done';
    }
    case '/cost': {
      const t = ctx.host.totals;
      const cost =
        ctx.host.model.pricing === null && t.cost === 0
          ? 'cost unknown (no price for this model; set "pricing" in the config)'
          : `${formatCost(t.cost)}${t.priced ? '' : ' (some turns had no price)'}`;
      out(
        `session: ${t.turns} turn(s) · in ${formatTokens(t.inputTokens)} · out ${formatTokens(t.outputTokens)} tokens · ${cost}`,
      );
      return 'done';
    }
    case '/skills': {
      const { skills, warnings } = await listSkillsMeta({ cwd: ctx.cwd });
      if (skills.length === 0)
        out('no skills found (SKILL.md under .codeagent/skills, .claude/skills, ~/.codeagent/skills...)');
      for (const skill of skills)
        out(`  /${clean(skill.name).padEnd(20)} ${clean(skill.description).slice(0, 100)}`);
      for (const w of warnings) {
        out(
          `  ${w.skipped ? 'skipped' : 'warning'}: ${clean(w.file)}${w.field ? ` (${clean(w.field)})` : ''}: ${clean(w.reason)}`,
        );
      }
      return 'done';
    }
    case '/sessions': {
      const sessions = await ctx.store.list();
      if (sessions.length === 0) out('no saved sessions');
      for (const s of sessions.slice(0, 20)) out(`  ${describeSession(s)}`);
      const damaged = sessions.filter((s) => s.damaged !== null).length;
      if (damaged > 0) out(`${damaged} damaged session file(s) in ${clean(ctx.store.dir)} cannot be resumed`);
      if (sessions.length > 20) out(`… and ${sessions.length - 20} more`);
      return 'done';
    }
    case '/clear':
      ctx.host.client.clear();
      // A new conversation starts with no approvals carried over.
      ctx.host.gate()?.clearGrants();
      out(`cleared · new session ${ctx.newSession()}`);
      return 'done';
    case '/permissions':
      for (const l of permissionsCommand(
        ctx.host.gate(),
        ctx.permissions ?? { sources: [], ignored: [], files: [] },
        arg,
      ))
        out(l);
      return 'done';
    default: {
      if (command.startsWith('/mcp__') && ctx.mcp) {
        const expanded = await ctx.mcp.expand(line);
        if (expanded !== null && 'error' in expanded) {
          out(expanded.error);
          return 'done';
        }
        if (expanded !== null) return { prompt: expanded.text, label: expanded.label, fromServer: true };
      }
      // The client's own expansion decides; the turn then sends the line, which the client expands the
      // same way for `-p`, so a skill reaches the model as one input whichever way it was typed.
      const expansion = await ctx.host.client.expandSlashCommand(line);
      switch (expansion.kind) {
        case 'skill': {
          const slash = parseSlashCommand(line);
          const args = slash && slash.args.trim() !== '' ? ` with "${clean(slash.args).slice(0, 60)}"` : '';
          return { prompt: line, label: `running skill ${clean(slash?.name ?? command)}${args}` };
        }
        case 'none':
          out(`unknown command ${clean(command)} (try /help)`);
          return 'done';
        case 'unknown':
        case 'failed':
          out(clean(expansion.message));
          return 'done';
        default:
          return assertNever(expansion);
      }
    }
  }
}
