import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const run = promisify(execFile);

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run('node', [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Runs `codeagent -p go` on a scripted model in a fresh workspace; returns the run and the temp root. */
async function runScript(script: unknown[], extra: string[] = []) {
  const root = await workspace();
  await writeFile(join(root, 's.json'), JSON.stringify(script));
  const args = ['-p', 'go', ...extra, '--script', join(root, 's.json'), '--cwd', join(root, 'work')];
  return { root, r: await cli([...args, '--data-dir', join(root, 'data')]) };
}

async function workspace() {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-oneshot-'));
  await mkdir(join(root, 'work'));
  return root;
}

describe('codeagent -p and --json', () => {
  it('runs one turn and writes the event stream as NDJSON, ending with the result', async () => {
    const { root, r } = await runScript(
      [
        { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'echo hi' } }] },
        { parts: [{ type: 'text', text: 'done' }] },
      ],
      ['--json', '--mode', 'bypass'],
    );
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const types = events.map((e) => e.type).filter((t) => t !== 'tick');
    // Bash's live output (agent-core's tool-output event, ADR 0170) comes between its request and its result.
    expect(types).toEqual(['session', 'tool-request', 'tool-output', 'tool-result', 'delta', 'usage', 'end']);
    expect(events.find((e) => e.type === 'tool-output')).toMatchObject({ stream: 'stdout' });
    expect(JSON.stringify(events.find((e) => e.type === 'tool-output'))).toContain('hi');
    const result = events.find((e) => e.type === 'tool-result');
    expect(Object.keys(result)).toEqual([
      'type',
      'id',
      'name',
      'display',
      'value',
      'isError',
      'artifact',
      'view',
    ]);
    expect(result.value).toContain('hi');
    expect(events.at(-1).result).toMatchObject({ text: 'done', stopReason: 'completed' });
    expect(await readdir(join(root, 'data', 'sessions'))).toHaveLength(1);
  });

  it('denies an approval it cannot ask for (no terminal) and exits by stop reason', async () => {
    const { root, r } = await runScript([
      { parts: [{ type: 'tool-call', toolName: 'Write', input: { file_path: 'x.txt', content: 'x' } }] },
      { parts: [{ type: 'text', text: 'ok' }] },
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/approval needed for Write .* no terminal to ask: denied/);
    expect(r.stdout).toBe('ok\n');
    expect(existsSync(join(root, 'work', 'x.txt'))).toBe(false);
  });

  it('exits 1 with the error when the model fails, and 2 on bad usage', async () => {
    const { r } = await runScript([{ throws: 'HTTP 401 Unauthorized: bad key' }]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error/);
    const usage = await cli(['--mode', 'yolo']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown --mode "yolo"');
  });

  it('explains bad model configuration with exit 1: unknown provider, missing base URL, broken script', async () => {
    const root = await workspace();
    const data = ['--data-dir', join(root, 'data')];
    const unknown = await cli(['-p', 'hi', '--provider', 'nope', ...data]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown provider "nope"');
    const noUrl = await cli(['-p', 'hi', '--provider', 'openai-compatible', ...data]);
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toMatch(/needs baseURL \(environment: CODEAGENT_BASE_URL\)/);
    await writeFile(join(root, 'bad.json'), 'not json');
    const broken = await cli(['-p', 'hi', '--script', join(root, 'bad.json'), ...data]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('is not valid JSON');
    await writeFile(join(root, 'obj.json'), '{"turns": []}');
    const notArray = await cli(['-p', 'hi', '--script', join(root, 'obj.json'), ...data]);
    expect(notArray.stderr).toContain('must hold a JSON array of turns');
  });

  it('runs the demo on a temporary copy of the sample workspace with every card and a denial', async () => {
    const root = await workspace();
    const r = await cli(['demo', '--data-dir', join(root, 'data')], { NO_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('scripted demo model');
    for (const expected of [
      'Glob',
      'Read src/greet.ts',
      'Edit src/greet.ts',
      'Write src/farewell.ts',
      '[exit 0]',
      '[exit 1]',
      'Permission denied for Bash',
      'completed (stop)',
      'demo workspace left at',
      'applied as shown',
      'image/png',
    ]) {
      expect(r.stdout).toContain(expected);
    }
    expect(r.stdout).not.toMatch(/\u001b/);
  });
});
