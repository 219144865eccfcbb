import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The built CLI. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Every JSON-RPC message seen on a wire, by direction. */
export interface WireLog {
  /** Client -> agent (the agent's stdin). */
  readonly sent: unknown[];
  /** Agent -> client (the agent's stdout), one parsed line each. */
  readonly received: unknown[];
  /** Stdout lines that were not JSON (must stay empty: stdout is protocol only). */
  readonly garbage: string[];
}

/** A spawned `codeagent acp` with its stdio. */
export interface AcpChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the built `codeagent acp` with a clean environment plus `env`. */
export function spawnAcp(args: readonly string[], env: Record<string, string> = {}): AcpChild {
  const child = spawn(process.execPath, [BIN, 'acp', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stderr: () => stderr, exited };
}

function tap(into: unknown[], garbage?: string[]): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim() !== '') {
          try {
            into.push(JSON.parse(line));
          } catch {
            garbage?.push(line);
          }
        }
        nl = buffer.indexOf('\n');
      }
      controller.enqueue(chunk);
    },
  });
}

/** An SDK stream over the child's stdio that records every message both ways. */
export function tappedStream(child: ChildProcessWithoutNullStreams, log: WireLog): acp.Stream {
  const toChild = tap(log.sent);
  void toChild.readable.pipeTo(Writable.toWeb(child.stdin)).catch(() => undefined);
  const fromChild = (Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>).pipeThrough(
    tap(log.received, log.garbage),
  );
  return acp.ndJsonStream(toChild.writable, fromChild);
}

/** A fresh, empty wire log. */
export function wireLog(): WireLog {
  return { sent: [], received: [], garbage: [] };
}

/** Validates messages against the SDK's published JSON Schema of ACP v1; returns the failures. */
export function schemaFailures(messages: readonly unknown[]): string[] {
  const require = createRequire(import.meta.url);
  const path = require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json');
  const schema = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  const validate = ajv.compile(schema);
  const failures: string[] = [];
  for (const m of messages) {
    if (!validate(m)) {
      failures.push(`${JSON.stringify(m).slice(0, 300)} -> ${ajv.errorsText(validate.errors).slice(0, 300)}`);
    }
  }
  return failures;
}

/** The `session/update` payloads in a wire log, in order. */
export function updatesOf(log: WireLog, sessionId?: string): acp.SessionUpdate[] {
  return log.received
    .filter(
      (m): m is { method: string; params: acp.SessionNotification } =>
        typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'session/update',
    )
    .filter((m) => sessionId === undefined || m.params.sessionId === sessionId)
    .map((m) => m.params.update);
}
