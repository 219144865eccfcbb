import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { type CapturedOutput, OutputCapture } from './capture.js';
import { ToolError } from './errors.js';
import { toPlainText, utf8CompleteLength } from './text.js';

/** Which pipe of a command a chunk of live output came from. */
export type OutputStreamName = 'stdout' | 'stderr';

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
  /** Registry the running group is tracked in, so a host can kill it on exit or a signal. */
  groups?: ProcessGroups | undefined;
  /**
   * How long to wait for the output pipes after the shell exited and its group was ended (default 300 ms);
   * a process outside the group (`setsid`, `nohup … &` into its own session) that still holds them is then
   * abandoned and reported in {@link CommandResult.survivors}.
   */
  lingerMs?: number | undefined;
  /**
   * Receives the output while the command runs, decoded as UTF-8 (a character is never split across chunks),
   * escapes untouched like {@link CommandResult.output}; at most `maxOutputBytes` bytes in total, then one
   * {@link LIVE_OUTPUT_CUT} note and nothing more (the result's capped head and tail have the rest).
   */
  onOutput?: ((stream: OutputStreamName, text: string) => void) | undefined;
}

/** The note live output ends with when the command wrote more than the cap. */
export const LIVE_OUTPUT_CUT =
  '\n[... live output stopped at the output limit; the result keeps the end ...]\n';

/**
 * Live output of one command within a byte budget: two UTF-8 decoders (stdout, stderr), the bytes counted
 * before decoding, a chunk that crosses the budget cut at a character boundary and followed by the note once.
 */
class LiveOutput {
  readonly #emit: (stream: OutputStreamName, text: string) => void;
  readonly #decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  #left: number;
  #done = false;

  constructor(maxBytes: number, emit: (stream: OutputStreamName, text: string) => void) {
    this.#left = Math.max(0, Math.floor(maxBytes));
    this.#emit = emit;
  }

  write(stream: OutputStreamName, chunk: Buffer): void {
    if (this.#done) return;
    const decoder = this.#decoders[stream];
    if (chunk.length <= this.#left) {
      this.#left -= chunk.length;
      this.#send(stream, decoder.write(chunk));
      return;
    }
    const cut = chunk.subarray(0, utf8CompleteLength(chunk.subarray(0, this.#left)));
    this.#left = 0;
    this.#done = true;
    this.#send(stream, decoder.write(cut) + decoder.end() + LIVE_OUTPUT_CUT);
  }

  /** The command ended: whatever a decoder still holds (an incomplete character) goes out as U+FFFD. */
  end(): void {
    if (this.#done) return;
    this.#done = true;
    for (const stream of ['stdout', 'stderr'] as const) this.#send(stream, this.#decoders[stream].end());
  }

  #send(stream: OutputStreamName, text: string): void {
    if (text === '') return;
    try {
      this.#emit(stream, text);
    } catch {
      // A listener that fails must not break the command: live output is display only.
    }
  }
}

/** A process started by the command that outlived it outside its process group. */
export interface SurvivingProcess {
  /** Process id. */
  pid: number;
  /** Command name (`/proc/<pid>/comm`). */
  name: string;
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
  /**
   * Whether the call stopped waiting for the output pipes because something outside the process group
   * still held them (the output may miss what it wrote later).
   */
  abandonedPipes: boolean;
  /**
   * Processes the command started that are still running outside its process group when the call returned
   * after a timeout, an abort or abandoned pipes (found on Linux by the call's `CODEAGENT_PROCESS_TAG`
   * environment marker; empty elsewhere, and after a clean exit).
   */
  survivors: SurvivingProcess[];
}

/** The environment variable that tags every process a command starts (inherited unless a child clears it). */
export const PROCESS_TAG_ENV = 'CODEAGENT_PROCESS_TAG';

/**
 * Process groups of running commands, so a host can end them all at once (on SIGINT/SIGTERM/SIGHUP and on
 * exit); a group leaves the registry when its command ended.
 */
export class ProcessGroups {
  readonly #pids = new Set<number>();

  /** Tracks the group led by `pid`. */
  add(pid: number | undefined): void {
    if (pid !== undefined) this.#pids.add(pid);
  }

  /** Stops tracking the group led by `pid`. */
  delete(pid: number | undefined): void {
    if (pid !== undefined) this.#pids.delete(pid);
  }

  /** Leaders of the groups tracked now. */
  get pids(): readonly number[] {
    return [...this.#pids];
  }

  /**
   * Sends `signal` to every tracked group (synchronous, safe in an `exit` handler; `0` only counts); returns how
   * many were alive.
   */
  killAll(signal: NodeJS.Signals | 0 = 'SIGKILL'): number {
    let alive = 0;
    for (const pid of this.#pids) if (killProcessGroup(pid, signal)) alive += 1;
    return alive;
  }
}

/**
 * Processes still running whose environment carries `tag` in {@link PROCESS_TAG_ENV} (Linux `/proc`; an empty
 * list where it is unavailable or unreadable).
 */
export function findTaggedProcesses(tag: string): SurvivingProcess[] {
  const wanted = `${PROCESS_TAG_ENV}=${tag}`;
  const found: SurvivingProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!environ.includes(wanted) || !environ.split('\0').includes(wanted)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      found.push({ pid: Number(entry), name: readFileSync(`/proc/${entry}/comm`, 'utf8').trim() });
    } catch {
      // Gone meanwhile, or another user's process: not ours to report.
    }
  }
  return found;
}

/**
 * Sends `signal` to the whole process group led by `pid` (`0` only tests that the group exists); a group that is
 * already gone is fine. Returns whether the group existed.
 */
export function killProcessGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
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
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv | undefined;
    shell?: string | undefined;
    tag?: string | undefined;
  },
): ChildProcess {
  if (typeof command !== 'string' || command.trim() === '') {
    throw new ToolError('invalid-input', 'command must be a non-empty string');
  }
  if (command.includes('\0')) throw new ToolError('invalid-input', 'command contains a NUL byte');
  const env = options.env ?? process.env;
  return spawn(options.shell ?? 'bash', ['-c', command], {
    cwd: options.cwd,
    env: options.tag === undefined ? env : { ...env, [PROCESS_TAG_ENV]: options.tag },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
}

/**
 * Runs a shell command as its own process group. The timeout and the abort signal kill the whole
 * group (SIGTERM, then SIGKILL after a grace period); when the shell exits, whatever it left
 * running in its group is terminated the same way, so a foreground call never leaks processes.
 * The call returns within a bounded time whatever the children do: once the shell exited (or the
 * timeout/abort fired) it waits at most the grace period plus `lingerMs` for the output pipes, then
 * closes its ends and reports the processes that left the group and still run (`survivors`).
 * Output is captured within `maxOutputBytes` whatever the command prints.
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandResult> {
  const grace = options.killGraceMs ?? 2000;
  const linger = options.lingerMs ?? 300;
  if (options.signal?.aborted) {
    return Promise.reject(
      new ToolError('invalid-input', 'Command not started: the call was already aborted'),
    );
  }
  const capture = new OutputCapture(options.maxOutputBytes);
  const live = options.onOutput ? new LiveOutput(options.maxOutputBytes, options.onOutput) : null;
  const tag = randomUUID();
  return new Promise<CommandResult>((resolve, reject) => {
    const child = spawnShell(command, { ...options, tag });
    options.groups?.add(child.pid);
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const timers: NodeJS.Timeout[] = [];
    let deadline: NodeJS.Timeout | undefined;
    const terminate = (): boolean => {
      // Escalate only when the group still existed: never SIGKILL a recycled id.
      if (!killProcessGroup(child.pid, 'SIGTERM')) return false;
      const t = setTimeout(() => killProcessGroup(child.pid, 'SIGKILL'), grace);
      t.unref();
      timers.push(t);
      return true;
    };
    const cleanup = (): void => {
      clearTimeout(timeout);
      if (deadline !== undefined) clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
      options.groups?.delete(child.pid);
    };
    const finish = (ended: { code: number | null; signal: NodeJS.Signals | null }, abandoned: boolean) => {
      if (settled) return;
      settled = true;
      cleanup();
      if (abandoned) {
        // Our ends of the pipes: a process outside the group may keep its ends open for as long as it likes.
        child.stdout?.destroy();
        child.stderr?.destroy();
      }
      live?.end();
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
        abandonedPipes: abandoned,
        // Looked for only when something went wrong: a scan of /proc costs milliseconds per call.
        survivors: abandoned || timedOut || aborted ? findTaggedProcesses(tag) : [],
      });
    };
    /** Arms the bound: after `ms`, stop waiting for the pipes (the shell may not even have exited). */
    const bound = (ms: number): void => {
      if (deadline !== undefined) return;
      deadline = setTimeout(() => finish(exit ?? { code: null, signal: null }, true), ms);
      deadline.unref();
    };
    const onAbort = (): void => {
      aborted = true;
      terminate();
      bound(grace + linger);
    };
    const timeout = setTimeout(() => {
      if (exit !== undefined) return;
      timedOut = true;
      terminate();
      bound(grace + linger);
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => {
      capture.write(chunk);
      live?.write('stdout', chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      capture.write(chunk);
      live?.write('stderr', chunk);
    });
    child.once('error', (error) => {
      settled = true;
      cleanup();
      for (const t of timers) clearTimeout(t);
      reject(
        new ToolError('spawn-failed', `Could not start the shell in ${options.cwd}: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      clearTimeout(timeout);
      // The shell is gone: end anything it left behind in its group so the pipes close; a pipe held open by a
      // process outside the group is waited for only briefly.
      const groupLeft = terminate();
      bound(groupLeft ? grace + linger : linger);
    });
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      // Pending SIGKILL escalations stay armed (unref'd): a straggler that ignored SIGTERM still dies.
      finish(exit ?? { code, signal }, false);
    });
  });
}
