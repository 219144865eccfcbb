import { type ChildProcess, spawn } from 'node:child_process';
import { type CapturedOutput, OutputCapture } from './capture.js';
import { ToolError } from './errors.js';
import { toPlainText } from './text.js';

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  /** Working directory. */
  cwd: string;
  /** Kill the process group after this many milliseconds. */
  timeoutMs: number;
  /** Output kept (head + tail), in bytes. */
  maxOutputBytes: number;
  /** Kills the process group when aborted. */
  signal?: AbortSignal | undefined;
  /** Environment (default: this process's). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Delay between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number | undefined;
  /** Shell executable run as `<shell> -c <command>` (default `bash`). */
  shell?: string | undefined;
}

/** How a command ended, with its capped output. */
export interface CommandResult {
  /** Raw output (stdout and stderr interleaved as they arrived), capped head + tail, escapes untouched. */
  output: string;
  /** `output` as plain text: escape sequences and control characters stripped. */
  plain: string;
  /** Exit code, or `null` when a signal ended the shell. */
  exitCode: number | null;
  /** Signal name that ended the shell, or `null`. */
  signal: string | null;
  /** Whether the timeout fired. */
  timedOut: boolean;
  /** Whether the abort signal fired. */
  aborted: boolean;
  /** Bytes the command wrote in total. */
  totalBytes: number;
  /** Bytes dropped from the middle of the output. */
  droppedBytes: number;
  /** Process id of the shell. */
  pid: number | undefined;
}

/** Sends `signal` to the whole process group led by `pid`; a group that is already gone is fine. */
export function killProcessGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Spawns `<shell> -c command` detached (its own process group) with piped, captured output. */
export function spawnShell(
  command: string,
  options: { cwd: string; env?: NodeJS.ProcessEnv | undefined; shell?: string | undefined },
): ChildProcess {
  if (typeof command !== 'string' || command.trim() === '') {
    throw new ToolError('invalid_input', 'command must be a non-empty string');
  }
  if (command.includes('\0')) throw new ToolError('invalid_input', 'command contains a NUL byte');
  return spawn(options.shell ?? 'bash', ['-c', command], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
}

/**
 * Runs a shell command as its own process group. The timeout and the abort signal kill the whole
 * group (SIGTERM, then SIGKILL after a grace period); when the shell exits, whatever it left
 * running in its group is terminated the same way, so a foreground call never leaks processes.
 * Output is captured within `maxOutputBytes` whatever the command prints.
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandResult> {
  const grace = options.killGraceMs ?? 2000;
  if (options.signal?.aborted) {
    return Promise.reject(
      new ToolError('invalid_input', 'Command not started: the call was already aborted'),
    );
  }
  const capture = new OutputCapture(options.maxOutputBytes);
  return new Promise<CommandResult>((resolve, reject) => {
    const child = spawnShell(command, options);
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const timers: NodeJS.Timeout[] = [];
    const terminate = (): void => {
      // Escalate only when the group still existed: never SIGKILL a recycled id.
      if (!killProcessGroup(child.pid, 'SIGTERM')) return;
      const t = setTimeout(() => killProcessGroup(child.pid, 'SIGKILL'), grace);
      t.unref();
      timers.push(t);
    };
    const onAbort = (): void => {
      aborted = true;
      terminate();
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      terminate();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(timeout);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.stdout?.on('data', (chunk: Buffer) => capture.write(chunk));
    child.stderr?.on('data', (chunk: Buffer) => capture.write(chunk));
    child.once('error', (error) => {
      cleanup();
      for (const t of timers) clearTimeout(t);
      reject(
        new ToolError('spawn_failed', `Could not start the shell in ${options.cwd}: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      clearTimeout(timeout);
      // The shell is gone: end anything it left behind in its group so the pipes close.
      terminate();
    });
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      // Pending SIGKILL escalations stay armed (unref'd): a straggler that ignored SIGTERM still dies.
      cleanup();
      const ended = exit ?? { code, signal };
      const snap: CapturedOutput = capture.snapshot();
      resolve({
        output: snap.text,
        plain: toPlainText(snap.text),
        exitCode: ended.code,
        signal: ended.signal,
        timedOut,
        aborted,
        totalBytes: snap.totalBytes,
        droppedBytes: snap.droppedBytes,
        pid: child.pid,
      });
    });
  });
}
