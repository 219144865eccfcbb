import type { ChildProcess } from 'node:child_process';
import { type CapturedOutput, OutputCapture } from './capture.js';
import { ToolError } from './errors.js';
import { killProcessGroup, spawnShell } from './process.js';

/** How long a job's pipes are waited for after its shell exited and its group was ended. */
const LINGER_MS = 300;

/** Lifecycle state of a background job. */
export type JobStatus = 'running' | 'exited' | 'killed';

/** A snapshot of a background job. */
export interface JobInfo {
  /** Stable id within its {@link BackgroundJobs} (`job-1`, `job-2`, ...). */
  id: string;
  /** The command line. */
  command: string;
  /** Process id of the shell (leader of the job's process group). */
  pid: number | undefined;
  /** Current state. */
  status: JobStatus;
  /** Exit code once exited (`null` while running or when a signal ended it). */
  exitCode: number | null;
  /** Signal that ended it, or `null`. */
  signal: string | null;
}

/** Options of {@link BackgroundJobs}. */
export interface BackgroundJobsOptions {
  /** Output kept per read window, head + tail (default 30,000 bytes). */
  maxOutputBytes?: number;
  /** Most jobs running at once (default 16). */
  maxRunning?: number;
  /** Delay between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** Shell executable (default `bash`). */
  shell?: string;
}

interface Job {
  info: JobInfo;
  child: ChildProcess;
  capture: OutputCapture;
  done: Promise<void>;
}

/**
 * Background shell jobs of one session: each job is its own process group, its output is kept
 * within a cap per read window, and every job still running is killed by {@link BackgroundJobs.dispose}
 * (and, as a last resort, when this Node process exits).
 */
export class BackgroundJobs {
  readonly #jobs = new Map<string, Job>();
  readonly #maxOutputBytes: number;
  readonly #maxRunning: number;
  readonly #grace: number;
  readonly #shell: string;
  #next = 1;
  readonly #onExit = (): void => {
    this.killAll('SIGKILL');
  };

  /** Creates an empty job table. */
  constructor(options: BackgroundJobsOptions = {}) {
    this.#maxOutputBytes = options.maxOutputBytes ?? 30_000;
    this.#maxRunning = options.maxRunning ?? 16;
    this.#grace = options.killGraceMs ?? 2000;
    this.#shell = options.shell ?? 'bash';
  }

  /** Starts `command` in `cwd` as a background job. */
  start(command: string, options: { cwd: string; env?: NodeJS.ProcessEnv | undefined }): JobInfo {
    const running = [...this.#jobs.values()].filter((j) => j.info.status === 'running').length;
    if (running >= this.#maxRunning) {
      throw new ToolError(
        'invalid-input',
        `Too many background jobs running (${running}); stop one with job_kill before starting another`,
      );
    }
    const child = spawnShell(command, { ...options, shell: this.#shell });
    const info: JobInfo = {
      id: `job-${this.#next++}`,
      command,
      pid: child.pid,
      status: 'running',
      exitCode: null,
      signal: null,
    };
    const job: Job = {
      info,
      child,
      capture: new OutputCapture(this.#maxOutputBytes),
      done: new Promise<void>((resolve) => {
        child.once('error', (error) => {
          job.capture.write(Buffer.from(`Could not start the shell: ${error.message}\n`));
          if (info.status === 'running') info.status = 'exited';
          resolve();
        });
        child.once('exit', (code, signal) => {
          if (info.status === 'running') info.status = signal === null ? 'exited' : 'killed';
          info.exitCode = code;
          info.signal = signal;
          // End what the job left in its group, like a foreground command, so the pipes close.
          const groupLeft = killProcessGroup(info.pid, 'SIGTERM');
          if (groupLeft) setTimeout(() => killProcessGroup(info.pid, 'SIGKILL'), this.#grace).unref();
          // A process outside the group (setsid) may hold the pipes for ever: stop waiting for them (ADR 0113).
          setTimeout(
            () => {
              child.stdout?.destroy();
              child.stderr?.destroy();
              resolve();
            },
            (groupLeft ? this.#grace : 0) + LINGER_MS,
          ).unref();
        });
        // Resolved once the output pipes are drained, so a read after `wait` sees everything.
        child.once('close', () => resolve());
      }),
    };
    child.stdout?.on('data', (chunk: Buffer) => job.capture.write(chunk));
    child.stderr?.on('data', (chunk: Buffer) => job.capture.write(chunk));
    if (this.#jobs.size === 0) process.on('exit', this.#onExit);
    this.#jobs.set(info.id, job);
    return { ...info };
  }

  #get(id: string): Job {
    const job = this.#jobs.get(id);
    if (job === undefined) {
      const known = [...this.#jobs.keys()];
      throw new ToolError(
        'unknown-job',
        `No background job "${id}"${known.length > 0 ? ` (known: ${known.join(', ')})` : ' (none started)'}`,
      );
    }
    return job;
  }

  /** The job's output written since the previous read (capped head + tail), and its state. */
  read(id: string): { info: JobInfo; output: CapturedOutput } {
    const job = this.#get(id);
    const output = job.capture.snapshot();
    job.capture = new OutputCapture(this.#maxOutputBytes);
    return { info: { ...job.info }, output };
  }

  /** Kills a job's process group (SIGTERM, SIGKILL after the grace period) and waits until it ended. */
  async kill(id: string): Promise<JobInfo> {
    const job = this.#get(id);
    if (job.info.status === 'running') {
      job.info.status = 'killed';
      killProcessGroup(job.info.pid, 'SIGTERM');
      const escalate = setTimeout(() => killProcessGroup(job.info.pid, 'SIGKILL'), this.#grace);
      await job.done;
      clearTimeout(escalate);
    }
    return { ...job.info };
  }

  /**
   * Sends `signal` (default SIGKILL) to every running job's group at once, synchronously (for signal and `exit`
   * handlers, which cannot wait; `0` only counts); returns how many groups were alive.
   */
  killAll(signal: NodeJS.Signals | 0 = 'SIGKILL'): number {
    let alive = 0;
    for (const job of this.#jobs.values()) {
      if (job.info.status !== 'running') continue;
      if (killProcessGroup(job.info.pid, signal)) alive += 1;
    }
    return alive;
  }

  /** Snapshots of every job, oldest first. */
  list(): JobInfo[] {
    return [...this.#jobs.values()].map((j) => ({ ...j.info }));
  }

  /** Waits until a job has ended (for tests and hosts that want to join). */
  async wait(id: string): Promise<JobInfo> {
    const job = this.#get(id);
    await job.done;
    return { ...job.info };
  }

  /** Kills every running job and waits for them; the table stays readable. */
  async dispose(): Promise<void> {
    await Promise.all([...this.#jobs.values()].map((j) => this.kill(j.info.id)));
    process.off('exit', this.#onExit);
  }
}
