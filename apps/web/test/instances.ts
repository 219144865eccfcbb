import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { inject } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/server/bin.js', import.meta.url));

/** A new, empty database on the test PostgreSQL server; returns its URL. */
export async function freshDatabase(): Promise<string> {
  const { url } = inject('postgres');
  const name = `w_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return url.replace(/\/postgres$/, `/${name}`);
}

/** A web host instance in its own process (the built server), on a shared database. */
export interface Instance {
  readonly origin: string;
  readonly url: string;
  readonly token: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  api(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: Awaited<ReturnType<Response['json']>>; text: string }>;
  /** Sends messages the way `useChat` does and reads the response back with the AI SDK's own reader. */
  send(id: string, messages: UIMessage[]): Promise<UIMessage>;
  stop(): Promise<void>;
}

/** Starts `codeagent-web` with `env` (its database, its model) and waits for the URL it prints. */
export async function startInstance(env: Record<string, string>, cwd: string): Promise<Instance> {
  const child = spawn(process.execPath, [BIN, '--cwd', cwd, '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed in 20 s:\n${out}`)), 20_000);
    const check = () => {
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`codeagent-web exited ${code}:\n${out}`));
    });
  });
  const parsed = new URL(url);
  const token = parsed.searchParams.get('token') ?? '';
  const origin = parsed.origin;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const api: Instance['api'] = async (method, path, body) => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = res.status === 204 ? '' : await res.text();
    let json: Awaited<ReturnType<Response['json']>> = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, json, text };
  };
  const send: Instance['send'] = async (id, messages) => {
    const transport = new DefaultChatTransport({ api: `${origin}/api/sessions/${id}/chat`, headers });
    const stream = await transport.sendMessages({
      chatId: id,
      messages,
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const last = messages.at(-1);
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream({
      stream,
      ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}),
    }))
      message = m;
    return message as UIMessage;
  };
  return {
    origin,
    url,
    token,
    child,
    output: () => out,
    api,
    send,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Waits until the stored session row satisfies `ok` (what a test acts on must be committed first). */
export async function untilStored(
  url: string,
  id: string,
  ok: (row: {
    turn_state: string | null;
    ui: string | null;
    pending_count: number;
    steps: number;
  }) => boolean,
  ms = 20_000,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + ms;
    for (;;) {
      const r = await client.query(
        'SELECT turn_state, ui, pending_count, (SELECT count(*)::int FROM codeagent_steps WHERE session_id = $1) AS steps FROM codeagent_sessions WHERE id = $1',
        [id],
      );
      if (r.rows[0] && ok(r.rows[0])) return;
      if (Date.now() > deadline) throw new Error(`session ${id} never reached the expected stored state`);
      await new Promise((res) => setTimeout(res, 50));
    }
  } finally {
    await client.end();
  }
}
