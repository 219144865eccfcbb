import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Drives a real program in a tmux pseudo-terminal: keystrokes in, screen and raw bytes out. */
export class TmuxSession {
  private constructor(
    private readonly socket: string,
    private readonly name: string,
    readonly rawLog: string,
    private readonly statusFile: string,
  ) {}

  /** Starts `command` in a detached tmux session of the given size, logging every byte it writes to `rawLog`. */
  static async start(options: {
    command: readonly string[];
    cwd: string;
    env: Record<string, string>;
    logDir: string;
    width?: number;
    height?: number;
  }): Promise<TmuxSession> {
    const socket = `codeagent-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const name = 'main';
    const rawLog = join(options.logDir, `${socket}.raw`);
    const envArgs = Object.entries(options.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const statusFile = join(options.logDir, `${socket}.status`);
    const session = new TmuxSession(socket, name, rawLog, statusFile);
    // The pane's shell waits for a go signal (so pipe-pane is attached before the program writes), runs the
    // program, and records how it ended: `128 + N` for a signal. (tmux 3.3's own pane status is unreliable.)
    const script = `read _go; ${options.command.map(shellQuote).join(' ')}; echo $? > ${shellQuote(statusFile)}`;
    await session.tmux(
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      String(options.width ?? 120),
      '-y',
      String(options.height ?? 40),
      '-c',
      options.cwd,
      ...envArgs,
      'bash',
      '--norc',
      '--noprofile',
      '-c',
      script,
    );
    await session.tmux('set-option', '-t', name, 'remain-on-exit', 'on');
    await session.tmux('pipe-pane', '-t', name, '-o', `cat >> ${shellQuote(rawLog)}`);
    await session.tmux('send-keys', '-t', name, 'Enter');
    return session;
  }

  private async tmux(...args: string[]): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socket, '-f', '/dev/null', ...args]);
    return stdout;
  }

  /** Types literal text (no key names interpreted). */
  async type(text: string): Promise<void> {
    await this.tmux('send-keys', '-t', this.name, '-l', text);
  }

  /** Pastes text as a terminal does: bracketed (`ESC[200~ ... ESC[201~`) when the program asked for it. */
  async paste(text: string): Promise<void> {
    const buffer = `codeagent-paste-${Math.random().toString(36).slice(2, 8)}`;
    await this.tmux('set-buffer', '-b', buffer, text);
    await this.tmux('paste-buffer', '-p', '-d', '-b', buffer, '-t', this.name);
  }

  /** Process id of the program (the child of the pane's shell), once it runs. */
  async programPid(): Promise<number | null> {
    const shell = (await this.tmux('display-message', '-p', '-t', this.name, '#{pane_pid}')).trim();
    const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', shell]).catch(() => ({ stdout: '' }));
    const pid = Number(stdout.trim().split(/\s+/u)[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  }

  /** Resizes the terminal (the program gets SIGWINCH and a new `columns`). */
  async resize(width: number, height = 40): Promise<void> {
    await this.tmux('resize-window', '-t', this.name, '-x', String(width), '-y', String(height));
  }

  /** Sends tmux key names such as `Enter`, `C-c`, `Down`. */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux('send-keys', '-t', this.name, ...keys);
  }

  /** The visible screen plus scrollback, as plain text with joined wrapped lines. */
  async screen(): Promise<string> {
    return this.tmux('capture-pane', '-t', this.name, '-p', '-J', '-S', '-2000');
  }

  /** The program's exit status once it has ended (`128 + N` when signal N killed it), else null. */
  async exitStatus(): Promise<number | null> {
    try {
      const text = (await readFile(this.statusFile, 'utf8')).trim();
      return text === '' ? null : Number(text);
    } catch {
      return null;
    }
  }

  /** Waits until the screen matches, polling; throws with the last screen on timeout. */
  async waitFor(pattern: string | RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = await this.screen();
      if (typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${String(pattern)}; screen was:\n${last}`);
  }

  /** Waits until the program exits and returns its status. */
  async waitForExit(timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const status = await this.exitStatus();
      if (status !== null) return status;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`program did not exit; screen was:\n${await this.screen()}`);
  }

  /** Every byte the program wrote to the terminal so far. */
  async raw(): Promise<Buffer> {
    try {
      return await readFile(this.rawLog);
    } catch {
      return Buffer.alloc(0);
    }
  }

  /** Kills the tmux server of this session. */
  async close(): Promise<void> {
    await this.tmux('kill-server').catch(() => undefined);
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
