import { createInterface, type Interface } from 'node:readline';
import { clean } from './clean.js';
import { PERMISSION_MODES, type PermissionMode } from '@codeagent/permission-gate';
import { listSkillsMeta, loadSkillPrompt, parseSlashCommand } from '@codeagent/skills';
import type { CliHost, HostIO } from './host.js';
import { describeCompaction } from './host.js';
import { permissionsCommand, type PermissionsView } from './permissions.js';
import type { SessionStore } from './sessions.js';

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
  /** Rule sources and ignored project entries, for `/permissions`. */
  permissions?: PermissionsView;
}

/** The built-in slash commands, for `/help`. */
export const SLASH_COMMANDS: ReadonlyArray<readonly [string, string]> = [
  ['/help', 'this list, and the skills you can invoke'],
  ['/compact', 'compact the conversation now'],
  ['/mode [name]', `show or set the permission mode (${PERMISSION_MODES.join(', ')})`],
  ['/permissions', 'show grants, rules and their files; /permissions revoke <id>|all'],
  ['/sessions', 'list saved sessions (resume with codeagent --resume <id>)'],
  ['/clear', 'start a new, empty session (drops session grants)'],
  ['/exit', 'leave (Ctrl+D too)'],
  ['/<skill> [args]', 'run a skill with arguments'],
];

type LineResult = { kind: 'line'; text: string } | { kind: 'eof' };

/** Reads one line at a time from a TTY (a fresh readline per line, so turns can read raw keys in between). */
class TtyLines {
  private readonly history: string[] = [];
  private interruptArmed = false;

  constructor(
    private readonly ctx: ReplContext,
    private readonly prompt: string,
  ) {}

  read(): Promise<LineResult> {
    return new Promise((resolve) => {
      const rl: Interface = createInterface({
        input: this.ctx.stdin,
        output: this.ctx.io.stdout,
        terminal: true,
        history: this.history,
        historySize: 200,
        removeHistoryDuplicates: true,
      });
      let done = false;
      const finish = (result: LineResult) => {
        if (done) return;
        done = true;
        rl.close();
        resolve(result);
      };
      rl.on('line', (text) => {
        this.interruptArmed = false;
        finish({ kind: 'line', text });
      });
      rl.on('close', () => finish({ kind: 'eof' }));
      rl.on('SIGINT', () => {
        if (rl.line.length > 0) {
          rl.write(null, { ctrl: true, name: 'u' });
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
      rl.setPrompt(this.prompt);
      rl.prompt();
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
  const { host, io } = ctx;
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const promptText = ctx.color ? '\u001b[1;36m›\u001b[0m ' : '› ';
  const lines = io.keys.interactive ? new TtyLines(ctx, promptText) : new PipeLines(ctx.stdin);
  out(`session ${ctx.sessionId()} · /help for commands · Ctrl+C interrupts a turn, twice exits`);
  for (;;) {
    const next = await lines.read();
    if (next.kind === 'eof') return 0;
    const line = next.text.trim();
    if (line === '') continue;
    let input = line;
    if (line.startsWith('/')) {
      const handled = await slashCommand(ctx, line);
      if (handled === 'exit') return 0;
      if (handled === 'done') continue;
      input = handled.prompt;
    }
    const result = await host.runTurn(input);
    await ctx.save(line.slice(0, 80));
    if (host.exitRequested) return exitStatusAfterInterrupt(result.stopReason);
  }
}

function exitStatusAfterInterrupt(stopReason: string): number {
  return stopReason === 'interrupted' ? 130 : 0;
}

async function slashCommand(ctx: ReplContext, line: string): Promise<'exit' | 'done' | { prompt: string }> {
  const out = (text: string) => ctx.io.stdout.write(`${text}\n`);
  const [command = '', ...rest] = line.split(/\s+/);
  const arg = rest.join(' ').trim();
  switch (command) {
    case '/exit':
    case '/quit':
      return 'exit';
    case '/help': {
      for (const [name, what] of SLASH_COMMANDS) out(`  ${name.padEnd(16)} ${what}`);
      const { skills } = await listSkillsMeta({ cwd: ctx.cwd });
      if (skills.length > 0) {
        out('skills:');
        for (const skill of skills) {
          out(`  /${clean(skill.name).padEnd(15)} ${clean(skill.description)}`);
        }
      }
      return 'done';
    }
    case '/compact': {
      const decision = await ctx.host.client.compact();
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
    case '/sessions': {
      const sessions = await ctx.store.list();
      if (sessions.length === 0) out('no saved sessions');
      for (const s of sessions.slice(0, 20)) {
        out(`  ${s.id}  ${s.updatedAt.toISOString()}  ${clean(s.title)}`);
      }
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
      const slash = parseSlashCommand(line);
      if (slash === null) {
        out(`unknown command ${clean(command)} (try /help)`);
        return 'done';
      }
      try {
        return { prompt: await loadSkillPrompt(slash.name, { cwd: ctx.cwd, args: slash.args }) };
      } catch (error) {
        out(clean((error as Error).message));
        return 'done';
      }
    }
  }
}
