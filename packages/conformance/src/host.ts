import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Answer, Implementation } from './run.js';
import { wireJson } from './wire.js';
import { isRecord } from '@codeagent/artifact-schema/internal';

/** The protocol name a host announces in its hello line. */
export const PROTOCOL = 'codeagent.conformance/1';

/** Options of {@link startHost}. */
export interface HostOptions {
  /** Milliseconds a host may take for one vector (default 5,000); past it the host is restarted. */
  readonly timeoutMs?: number;
  /** Milliseconds to wait for the hello line (default 20,000). */
  readonly helloTimeoutMs?: number;
  /** Working directory of the host. */
  readonly cwd?: string;
}

/** A running NDJSON host: an {@link Implementation} plus its captured stderr and a way to stop it. */
export interface NdjsonHost extends Implementation {
  /** The tail of what the host wrote on stderr (never mixed into the report's results). */
  readonly stderr: () => string;
  /** Stops the host. */
  close(): Promise<void>;
}

interface Hello {
  readonly name: string;
  readonly ops: readonly string[];
}

function readHello(line: string): Hello {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new Error(`the host's first line is not JSON: ${line.slice(0, 200)}`);
  }
  if (!isRecord(parsed) || parsed.type !== 'hello' || parsed.protocol !== PROTOCOL) {
    throw new Error(
      `the host's first line must be {"type":"hello","protocol":"${PROTOCOL}",...}, got ${line.slice(0, 200)}`,
    );
  }
  const ops = Array.isArray(parsed.ops) ? parsed.ops.filter((o): o is string => typeof o === 'string') : [];
  return { name: typeof parsed.name === 'string' ? parsed.name : 'host', ops };
}

/**
 * Starts a host command (run by the shell, as the user wrote it) that speaks the NDJSON protocol on its stdio:
 * it prints a hello line, then answers one JSON request per line (`{"id","op","args"}`) with one JSON line
 * (`{"id","ok":true,"result"}` or `{"id","ok":false,"error":{"name","code","message"}}`). A vector that takes longer
 * than the timeout fails and the host is restarted for the next one; a line that is not JSON fails the vector.
 */
export async function startHost(command: string, options: HostOptions = {}): Promise<NdjsonHost> {
  const timeoutMs = options.timeoutMs ?? 5000;
  let stderr = '';
  let child: ChildProcess | undefined;
  let pending: { id: string; resolve: (a: Answer) => void } | undefined;
  let lines: AsyncIterator<string> | undefined;
  let next = 0;

  const launch = async (): Promise<Hello> => {
    child = spawn(command, { shell: true, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-16_384);
    });
    child.stdin?.on('error', () => undefined);
    const rl = createInterface({
      input: child.stdout as NodeJS.ReadableStream,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    const iterator = rl[Symbol.asyncIterator]();
    // `close`, not `exit`: it comes after the host's output has been read, so a line printed just before exiting is
    // judged as the hello line it claims to be (a race under load otherwise).
    const exited = new Promise<never>((_, reject) => {
      child?.once('close', (code) =>
        reject(
          new Error(`the host exited (code ${code}) before its hello line; stderr: ${stderr.slice(-500)}`),
        ),
      );
    });
    const timer = new Promise<never>((_, reject) => {
      setTimeout(
        () => reject(new Error('no hello line from the host')),
        options.helloTimeoutMs ?? 20_000,
      ).unref();
    });
    const first = await Promise.race([iterator.next(), exited, timer]);
    if (first.done) throw new Error('the host closed its output before its hello line');
    lines = iterator;
    const self = child;
    self.once('exit', (code) => {
      if (child !== self) return;
      child = undefined;
      lines = undefined;
      const p = pending;
      pending = undefined;
      p?.resolve({
        ok: false,
        error: {
          name: 'HostError',
          message: `the host exited (code ${code}); it is restarted for the next vector`,
        },
      });
    });
    void pump(iterator);
    return readHello(first.value);
  };

  const pump = async (iterator: AsyncIterator<string>): Promise<void> => {
    for (;;) {
      const r = await iterator.next().catch(() => ({ done: true as const, value: undefined }));
      if (r.done || iterator !== lines) return;
      const p = pending;
      if (!p) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.value);
      } catch {
        pending = undefined;
        p.resolve({
          ok: false,
          error: { name: 'ProtocolError', message: `a line that is not JSON: ${r.value.slice(0, 200)}` },
        });
        continue;
      }
      if (!isRecord(parsed) || parsed.id !== p.id) {
        pending = undefined;
        p.resolve({
          ok: false,
          error: { name: 'ProtocolError', message: `an answer for another id: ${r.value.slice(0, 200)}` },
        });
        continue;
      }
      pending = undefined;
      if (parsed.ok === true) p.resolve({ ok: true, result: parsed.result ?? null });
      else {
        const e = isRecord(parsed.error) ? parsed.error : {};
        p.resolve({
          ok: false,
          error: {
            name: typeof e.name === 'string' ? e.name : 'Error',
            ...(typeof e.code === 'string' ? { code: e.code } : {}),
            ...(typeof e.message === 'string' ? { message: e.message } : {}),
          },
        });
      }
    }
  };

  const stop = () => {
    lines = undefined;
    child?.kill('SIGKILL');
    child = undefined;
  };

  const hello = await launch();
  return {
    name: hello.name,
    ops: hello.ops,
    stderr: () => stderr,
    async call(op, args) {
      if (!child) await launch();
      const id = `v${next++}`;
      return new Promise<Answer>((resolve) => {
        const timer = setTimeout(() => {
          pending = undefined;
          stop();
          resolve({
            ok: false,
            error: { name: 'Timeout', message: `no answer within ${timeoutMs} ms; the host was restarted` },
          });
        }, timeoutMs);
        pending = {
          id,
          resolve: (a) => {
            clearTimeout(timer);
            resolve(a);
          },
        };
        let line: string;
        try {
          line = wireJson({ id, op, args });
        } catch (error) {
          pending = undefined;
          clearTimeout(timer);
          resolve({
            ok: false,
            error: {
              name: 'ProtocolError',
              message: `the arguments cannot travel as JSON: ${String(error)}`,
            },
          });
          return;
        }
        child?.stdin?.write(`${line}\n`);
      });
    },
    async close() {
      child?.stdin?.end();
      stop();
    },
  };
}
