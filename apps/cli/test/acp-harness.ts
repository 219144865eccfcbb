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
  // A client writing to an agent that already left gets EPIPE: that is the agent's clean exit, not a test error.
  child.stdin.on('error', () => undefined);
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

/** Method -> [params definition, result definition] in the schema's `$defs`. */
const METHOD_DEFS: Readonly<Record<string, readonly [string, string | null]>> = {
  initialize: ['InitializeRequest', 'InitializeResponse'],
  'session/new': ['NewSessionRequest', 'NewSessionResponse'],
  'session/load': ['LoadSessionRequest', 'LoadSessionResponse'],
  'session/list': ['ListSessionsRequest', 'ListSessionsResponse'],
  'session/set_mode': ['SetSessionModeRequest', 'SetSessionModeResponse'],
  'session/prompt': ['PromptRequest', 'PromptResponse'],
  'session/cancel': ['CancelNotification', null],
  '$/cancel_request': ['CancelRequestNotification', null],
  'session/update': ['SessionNotification', null],
  'session/request_permission': ['RequestPermissionRequest', 'RequestPermissionResponse'],
};

/**
 * Validates messages against the SDK's published JSON Schema of ACP v1: the envelope against the root schema,
 * then the params of each request/notification and the result (or error) of each response against the
 * definition of its method (responses are paired with their request by direction and id). Returns the failures;
 * a method the table does not know is a failure too (nothing passes unchecked).
 */
export function schemaFailures(logs: readonly Pick<WireLog, 'sent' | 'received'>[]): string[] {
  const require = createRequire(import.meta.url);
  const path = require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json');
  const schema = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ ...schema, $id: 'acp' });
  const root = ajv.getSchema('acp');
  const failures: string[] = [];
  const fail = (m: unknown, why: string) =>
    failures.push(`${JSON.stringify(m).slice(0, 300)} -> ${why.slice(0, 300)}`);
  const check = (m: unknown, name: string, value: unknown) => {
    const v = ajv.getSchema(`acp#/$defs/${name}`);
    if (!v) throw new Error(`no $defs/${name} in the ACP schema`);
    if (!v(value)) fail(m, `${name}: ${ajv.errorsText(v.errors)}`);
  };
  type Msg = { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
  for (const log of logs) {
    for (const [mine, theirs] of [
      [log.sent, log.received],
      [log.received, log.sent],
    ] as const) {
      const asked = new Map<string, string>();
      for (const m of mine as Msg[]) {
        if (!root?.(m)) {
          fail(m, `envelope: ${ajv.errorsText(root?.errors)}`);
          continue;
        }
        if (typeof m.method !== 'string') continue;
        const defs = METHOD_DEFS[m.method];
        if (!defs) {
          fail(m, `method ${m.method} is not in the validation table`);
          continue;
        }
        check(m, defs[0], m.params);
        if (m.id !== undefined) asked.set(JSON.stringify(m.id), m.method);
      }
      for (const m of theirs as Msg[]) {
        if (typeof m.method === 'string' || m.id === undefined) continue;
        if (m.error !== undefined) {
          check(m, 'Error', m.error);
          continue;
        }
        const method = asked.get(JSON.stringify(m.id));
        const result = method === undefined ? undefined : METHOD_DEFS[method]?.[1];
        if (result) check(m, result, m.result);
        else fail(m, 'a response to no known request');
      }
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
