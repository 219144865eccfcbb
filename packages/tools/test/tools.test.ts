import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { type AgentTool, presentationMeta, type ToolContext } from '@codeagent/agent-core';
import { type ToolResult, toolResultArtifact } from '@codeagent/artifact-schema';
import { createToolPresenter, type ToolPresentation, type ToolResultView } from '@codeagent/render-intent';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BUILTIN_ARTIFACT_KINDS,
  BUILTIN_TOOL_META,
  type BuiltinToolkit,
  createBuiltinPresentations,
  createBuiltinToolkit,
} from '../src/index.js';
import { BUILTIN_INPUT_SCHEMAS } from '../src/schemas.js';
import { tempDir, writeTree } from './helpers.js';

const kits: BuiltinToolkit[] = [];
afterEach(async () => {
  while (kits.length > 0) await kits.pop()!.dispose();
});

async function kit(files: Record<string, string> = {}) {
  const cwd = await tempDir();
  await writeTree(cwd, files);
  const k = createBuiltinToolkit({ cwd, bash: { killGraceMs: 300 } });
  kits.push(k);
  const byName = new Map(k.tools.map((t) => [t.name, t]));
  let n = 0;
  const run = async (name: string, args: Record<string, unknown>, signal = new AbortController().signal) => {
    const tool = byName.get(name) as AgentTool;
    n += 1;
    const ctx: ToolContext = { callId: `c${n}`, name, signal, cwd, intent: null };
    return (await tool.execute(args, ctx)) as ToolResult;
  };
  return { cwd, k, run, byName };
}

/** The presentation half of a tool, as `createToolPresenter` looks it up. */
const presentation = (tool: AgentTool | undefined): ToolPresentation | undefined =>
  tool === undefined
    ? undefined
    : {
        ...(tool.presentCall ? { presentCall: tool.presentCall } : {}),
        ...(tool.presentResult ? { presentResult: tool.presentResult } : {}),
      };

const isError = (r: ToolResult): boolean => r.error !== undefined && r.error !== null && r.error !== false;

function presenterFor(lookup: (name: string) => ToolPresentation | undefined) {
  const issues: unknown[] = [];
  const presenter = createToolPresenter(lookup, { onError: (i) => issues.push(i) });
  let id = 0;
  return {
    issues,
    pair(name: string, args: unknown, result: { value: string; isError: boolean; meta?: unknown }) {
      id += 1;
      const call = presenter.call(`p${id}`, name, args);
      const res = presenter.result(`p${id}`, {
        content: result.value,
        isError: result.isError,
        ...(result.meta === undefined ? {} : { meta: result.meta }),
      });
      return { call, result: res };
    },
  };
}

describe('builtinTools', () => {
  it('exposes every tool with its capability metadata', async () => {
    const { k } = await kit();
    expect(k.tools.map((t) => t.name)).toEqual(Object.keys(BUILTIN_TOOL_META));
    for (const tool of k.tools) {
      expect(tool.capability).toEqual(BUILTIN_TOOL_META[tool.name as keyof typeof BUILTIN_TOOL_META]);
      // The schema the model gets is the one table's schema of that name.
      expect(tool.inputSchema).toBe(BUILTIN_INPUT_SCHEMAS[tool.name as keyof typeof BUILTIN_INPUT_SCHEMAS]);
      expect(tool.description.length).toBeGreaterThan(20);
    }
    expect(BUILTIN_TOOL_META.Bash.capability).toBe('exec');
    expect(BUILTIN_TOOL_META.Edit.capability).toBe('write');
    expect(BUILTIN_TOOL_META.Grep.capability).toBe('read');
  });

  it('Read returns a code artifact with the language and numbered lines for the model', async () => {
    const { run } = await kit({ 'src/main.py': 'print("hi")\n' });
    const r = await run('Read', { file_path: 'src/main.py', _intent: 'look at the entry point' });
    expect(r.value).toBe('     1\tprint("hi")');
    const artifact = toolResultArtifact(r);
    expect(artifact).toMatchObject({
      kind: BUILTIN_ARTIFACT_KINDS.Read,
      status: 'success',
      title: 'Read src/main.py (1 - 1)',
      payload: { text: 'print("hi")', lang: 'python', filename: 'src/main.py' },
    });
  });

  it('errors are clear one-line error results, never throws', async () => {
    const { run } = await kit();
    for (const [name, args] of [
      ['Read', { file_path: '../../etc/passwd' }],
      ['Read', { file_path: 42 }],
      ['Edit', { file_path: 'x', old_string: 'a' }],
      ['Grep', { pattern: '[' }],
      ['Bash', { command: '' }],
      ['job_output', { job_id: 'job-7' }],
      ['TodoWrite', { todos: [{ content: 'x', status: 'done' }] }],
    ] as const) {
      const r = await run(name, args as Record<string, unknown>);
      expect(isError(r), name).toBe(true);
      expect(r.value).not.toContain('\n');
      expect(r.value.length).toBeGreaterThan(10);
      expect(toolResultArtifact(r)).toMatchObject({
        kind: 'error',
        status: 'error',
        payload: { message: r.value },
      });
    }
    expect((await run('Read', { file_path: 42 })).value).toBe(
      'Invalid Read input: file_path: Invalid input: expected string, received number',
    );
  });

  it('Write and Edit produce diff artifacts and applied-hunk result views', async () => {
    const { run, cwd, byName } = await kit();
    const presentations = (name: string) => presentation(byName.get(name));
    const p = presenterFor(presentations);
    const content = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

    const created = await run('Write', { file_path: 'notes.txt', content });
    expect(toolResultArtifact(created)).toMatchObject({
      kind: 'diff',
      payload: { old: '', new: content, path: 'notes.txt' },
    });
    const createdViews = p.pair(
      'Write',
      { file_path: 'notes.txt', content },
      {
        value: created.value,
        isError: false,
        meta: presentationMeta(created),
      },
    );
    const abs = path.join(cwd, 'notes.txt');
    expect(createdViews.call).toEqual({
      card: 'diff',
      title: 'Write notes.txt',
      diffs: [{ path: abs, oldText: null, newText: content }],
      locations: [{ path: abs }],
    });
    expect(createdViews.result).toEqual({
      card: 'diff',
      diffs: [{ path: abs, oldText: null, newText: content }],
    });

    const same = await run('Write', { file_path: 'notes.txt', content });
    const sameView = p.pair(
      'Write',
      { file_path: 'notes.txt', content },
      {
        value: same.value,
        isError: false,
        meta: presentationMeta(same),
      },
    ).result;
    expect(sameView).toEqual({ card: 'diff', diffs: [{ path: abs, oldText: content, newText: content }] });

    const edited = await run('Edit', {
      file_path: 'notes.txt',
      old_string: 'line 10\n',
      new_string: 'LINE TEN\n',
    });
    expect(edited.value).toBe('Edited notes.txt: 1 replacement');
    expect(toolResultArtifact(edited)).toMatchObject({
      kind: 'diff',
      payload: { old: content, path: 'notes.txt' },
    });
    const editViews = p.pair(
      'Edit',
      { file_path: 'notes.txt', old_string: 'line 10\n', new_string: 'LINE TEN\n' },
      {
        value: edited.value,
        isError: false,
        meta: presentationMeta(edited),
      },
    );
    expect(editViews.call).toMatchObject({
      card: 'diff',
      diffs: [{ oldText: 'line 10\n', newText: 'LINE TEN\n' }],
    });
    expect(editViews.result).toEqual({
      card: 'diff',
      diffs: [
        {
          path: abs,
          oldText: 'line 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\n',
          newText: 'line 7\nline 8\nline 9\nLINE TEN\nline 11\nline 12\nline 13\n',
        },
      ],
    });
    expect(await readFile(abs, 'utf8')).toContain('LINE TEN');

    const failed = await run('Edit', { file_path: 'notes.txt', old_string: 'nope', new_string: 'x' });
    const failedView = p.pair(
      'Edit',
      { file_path: 'notes.txt', old_string: 'nope', new_string: 'x' },
      {
        value: failed.value,
        isError: true,
        meta: presentationMeta(failed),
      },
    ).result;
    expect(failedView.card).toBe('generic');
    expect(p.issues).toEqual([]);
  });

  it('Glob and Grep produce table artifacts and search cards', async () => {
    const { run, byName, cwd } = await kit({
      'a.ts': 'const needle = 1;\n',
      'b/c.ts': 'needle()\n',
      'd.md': 'no\n',
    });
    const glob = await run('Glob', { pattern: '**/*.ts' });
    expect(toolResultArtifact(glob)).toMatchObject({
      kind: 'table',
      payload: { columns: [{ name: 'path' }, { name: 'size' }, { name: 'modified' }] },
    });
    const grep = await run('Grep', { pattern: 'needle', path: 'b' });
    expect(grep.value).toBe('b/c.ts:1:needle()');
    expect(toolResultArtifact(grep)).toMatchObject({
      kind: 'table',
      payload: { df: [{ path: 'b/c.ts', line: 1, text: 'needle()' }] },
    });
    const p = presenterFor((n) => presentation(byName.get(n)));
    const views = p.pair(
      'Grep',
      { pattern: 'needle', path: 'b' },
      {
        value: grep.value,
        isError: false,
        meta: presentationMeta(grep),
      },
    );
    expect(views.call).toEqual({
      card: 'generic',
      title: 'Grep /needle/ in b',
      kind: 'search',
      rawInput: { pattern: 'needle', path: 'b' },
      locations: [{ path: path.join(cwd, 'b') }],
    });
    expect(views.result).toEqual({
      card: 'generic',
      title: '1 match',
      content: [{ type: 'text', text: 'b/c.ts:1:needle()' }],
    });
  });

  it('Bash gives a terminal call and result with the exit code, raw output in the artifact and plain text for the model', async () => {
    const { run, byName, cwd } = await kit();
    const command = `printf '\\033[32mok\\033[0m\\n'; exit 2`;
    const r = await run('Bash', { command, description: 'Print ok' });
    expect(r.value).toBe('ok\n[Exit code 2]');
    expect(isError(r)).toBe(false);
    expect(toolResultArtifact(r)).toMatchObject({
      kind: 'code',
      status: 'success',
      payload: { text: command, lang: 'bash', output: '\u001b[32mok\u001b[0m\n', exitCode: 2, signal: null },
    });
    const p = presenterFor((n) => presentation(byName.get(n)));
    const views = p.pair(
      'Bash',
      { command, description: 'Print ok' },
      {
        value: r.value,
        isError: false,
        meta: presentationMeta(r),
      },
    );
    expect(views.call).toEqual({ card: 'terminal', title: command, description: 'Print ok', cwd });
    expect(views.result).toEqual({ card: 'terminal', output: '\u001b[32mok\u001b[0m\n', exitCode: 2 });
  });

  it('Bash timeouts end in a terminal result with the signal', async () => {
    const { run, byName } = await kit();
    const r = await run('Bash', { command: 'echo start; sleep 30', timeout: 300 });
    expect(isError(r)).toBe(true);
    expect(r.value).toBe(
      'start\n[Command timed out after 300 ms and was killed]\n[Terminated by signal SIGTERM]',
    );
    const p = presenterFor((n) => presentation(byName.get(n)));
    const views = p.pair(
      'Bash',
      { command: 'echo start; sleep 30', timeout: 300 },
      {
        value: r.value,
        isError: true,
        meta: presentationMeta(r),
      },
    );
    expect(views.result).toEqual({ card: 'terminal', output: 'start\n', signal: 'SIGTERM' });
  });

  it('Bash kills the command when the call is aborted, and clamps the timeout', async () => {
    const { run } = await kit();
    const controller = new AbortController();
    const pending = run('Bash', { command: 'echo go; sleep 30' }, controller.signal);
    setTimeout(() => controller.abort(), 200);
    const r = await pending;
    expect(isError(r)).toBe(true);
    expect(r.value.split('\n').slice(-2)).toEqual([
      '[Command interrupted and killed]',
      '[Terminated by signal SIGTERM]',
    ]);
    const cwd = await tempDir();
    const small = createBuiltinToolkit({ cwd, bash: { maxTimeoutMs: 300, killGraceMs: 200 } });
    kits.push(small);
    const bash = small.tools.find((t) => t.name === 'Bash')!;
    const ctx: ToolContext = {
      callId: 'x',
      name: 'Bash',
      signal: new AbortController().signal,
      cwd,
      intent: null,
    };
    const clamped = (await bash.execute({ command: 'sleep 30', timeout: 600_000 }, ctx)) as ToolResult;
    expect(clamped.value).toBe(
      '[Command timed out after 300 ms and was killed]\n[Terminated by signal SIGTERM]',
    );
  });

  it('Bash with a 1.5 s timeout returns before a 7 s setsid child ends, naming it as a survivor', async () => {
    const { run, cwd } = await kit();
    const r = await run('Bash', { command: 'setsid sleep 7 & echo $! > s.pid; sleep 30', timeout: 1500 });
    const sleeper = Number((await readFile(path.join(cwd, 's.pid'), 'utf8')).trim());
    try {
      // Alive after the call returned: the call did not wait for it.
      expect(() => process.kill(sleeper, 0)).not.toThrow();
      expect(isError(r)).toBe(true);
      expect(r.value).toContain('[Command timed out after 1500 ms and was killed]');
      expect(r.value).toContain(
        `[1 process(es) left the command's process group and still run: ${sleeper} (sleep)]`,
      );
    } finally {
      process.kill(sleeper, 'SIGKILL');
    }
  });

  it('the toolkit kills the groups of running commands and background jobs at once (killAll)', async () => {
    const { run, k, cwd } = await kit();
    await run('Bash', { command: 'sleep 300 & echo $! > bg.pid; wait', run_in_background: true });
    const pending = run('Bash', { command: 'sleep 300 & echo $! > fg.pid; wait' });
    const pidOf = async (name: string) => {
      for (let i = 0; i < 100; i += 1) {
        const text = await readFile(path.join(cwd, name), 'utf8').catch(() => '');
        if (text.trim() !== '') return Number(text.trim());
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${name} never written`);
    };
    const fg = await pidOf('fg.pid');
    const bg = await pidOf('bg.pid');
    expect(k.killAll('SIGKILL')).toBe(2);
    const r = await pending;
    expect(r.value).toContain('[Terminated by signal SIGKILL]');
    const gone = (pid: number) => {
      try {
        process.kill(pid, 0);
        return readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z');
      } catch {
        return true;
      }
    };
    for (let i = 0; i < 100 && !(gone(fg) && gone(bg)); i += 1) await new Promise((r) => setTimeout(r, 50));
    expect([gone(fg), gone(bg)]).toEqual([true, true]);
  });

  it('Bash background jobs run with job_output and job_kill, drawn as generic cards', async () => {
    const { run, byName } = await kit();
    const started = await run('Bash', { command: 'echo hello; sleep 30', run_in_background: true });
    expect(started.value).toMatch(/^Started background job job-1 \(pid \d+\)/);
    const p = presenterFor((n) => presentation(byName.get(n)));
    const views = p.pair(
      'Bash',
      { command: 'echo hello; sleep 30', run_in_background: true },
      {
        value: started.value,
        isError: false,
        meta: presentationMeta(started),
      },
    );
    expect(views.call.card).toBe('generic');
    expect(views.result.card).toBe('generic');
    let out: ToolResult;
    do {
      await new Promise((r) => setTimeout(r, 20));
      out = await run('job_output', { job_id: 'job-1' });
    } while (out.value.startsWith('(no new output)'));
    expect(out.value).toBe('hello\n[job-1 is still running]');
    const killed = await run('job_kill', { job_id: 'job-1' });
    expect(killed.value).toBe('Stopped job-1. [job-1 ended by signal SIGTERM]');
    const outView = p.pair(
      'job_output',
      { job_id: 'job-1' },
      { value: out.value, isError: false, meta: presentationMeta(out) },
    );
    expect(outView).toEqual({
      call: { card: 'generic', title: 'Output of job-1', kind: 'execute', rawInput: { job_id: 'job-1' } },
      result: { card: 'generic', content: [{ type: 'text', text: '```console\nhello\n```' }] },
    });
  });

  it('TodoWrite replaces the list and returns a checklist', async () => {
    const { run, k } = await kit();
    const todos = [
      { content: 'Write tests', status: 'completed' },
      { content: 'Fix bug', status: 'in_progress', activeForm: 'Fixing bug' },
      { content: 'Ship', status: 'pending' },
    ];
    const r = await run('TodoWrite', { todos });
    expect(r.value).toBe(
      'Todos updated: 1 completed, 1 in progress, 1 pending\n[x] Write tests\n[~] Fixing bug\n[ ] Ship',
    );
    expect(k.todos.items).toEqual(todos);
    expect(toolResultArtifact(r)).toMatchObject({
      kind: 'table',
      payload: { df: [{ content: 'Write tests', activeForm: null }, {}, {}] },
    });
  });

  it('file tools stay confined through the tool surface', async () => {
    const { run, cwd } = await kit({ 'in.txt': 'x' });
    for (const [name, args] of [
      ['Read', { file_path: '../outside.txt' }],
      ['Write', { file_path: '/tmp/codeagent-escape.txt', content: 'x' }],
      ['Edit', { file_path: `${cwd}/../x`, old_string: 'a', new_string: 'b' }],
      ['Glob', { pattern: '*', path: '/' }],
      ['Grep', { pattern: 'x', path: '..' }],
    ] as const) {
      const r = await run(name, args as Record<string, unknown>);
      expect(r.value, name).toMatch(/outside the workspace roots/);
    }
  });
});

describe('presenters are pure: a saved session replays to identical views', () => {
  it('replays call/result pairs after the workspace is gone', async () => {
    const { run, cwd, byName } = await kit({ 'src/app.ts': 'export const x = 1;\nexport const y = 2;\n' });
    const log: Array<{
      name: string;
      args: Record<string, unknown>;
      value: string;
      isError: boolean;
      meta: unknown;
    }> = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await run(name, args);
      log.push({ name, args, value: r.value, isError: isError(r), meta: presentationMeta(r) });
    };
    await call('Read', { file_path: 'src/app.ts', offset: 2, limit: 1 });
    await call('Write', { file_path: 'src/new.ts', content: 'new\n' });
    await call('Write', { file_path: 'src/new.ts', content: 'newer\n' });
    await call('Edit', { file_path: 'src/app.ts', old_string: 'y = 2', new_string: 'y = 3' });
    await call('Edit', { file_path: 'src/app.ts', old_string: 'missing', new_string: 'x' });
    await call('Glob', { pattern: 'src/*.ts' });
    await call('Grep', { pattern: 'export', output_mode: 'count' });
    await call('Bash', { command: 'cat src/app.ts; exit 1', description: 'show' });
    await call('Bash', { command: 'sleep 20', timeout: 200 });
    await call('TodoWrite', { todos: [{ content: 'a', status: 'pending' }] });

    const live = presenterFor((n) => presentation(byName.get(n)));
    const liveViews = log.map((e) => live.pair(e.name, e.args, e));

    const saved = JSON.parse(JSON.stringify(log)) as typeof log;
    await rm(cwd, { recursive: true, force: true });
    const replayPresentations = createBuiltinPresentations({ cwd });
    const replay = presenterFor((n) => replayPresentations[n as keyof typeof replayPresentations]);
    const replayViews = saved.map((e) => replay.pair(e.name, e.args, e));
    expect(replayViews).toEqual(liveViews);
    const again = presenterFor((n) => replayPresentations[n as keyof typeof replayPresentations]);
    expect(saved.map((e) => again.pair(e.name, e.args, e))).toEqual(liveViews);
    expect(live.issues).toEqual([]);

    const cards = liveViews.map((v) => `${v.call.card}/${v.result.card}`);
    expect(cards).toEqual([
      'generic/generic',
      'diff/diff',
      'diff/diff',
      'diff/diff',
      'diff/generic',
      'generic/generic',
      'generic/generic',
      'terminal/terminal',
      'terminal/terminal',
      'generic/generic',
    ]);
    const overwrite = liveViews[2]!.result as Extract<ToolResultView, { card: 'diff' }>;
    expect(overwrite.diffs).toEqual([
      { path: path.join(cwd, 'src/new.ts'), oldText: 'new\n', newText: 'newer\n' },
    ]);
  });

  it('tolerates tampered or missing meta on replay (falls back, never throws)', () => {
    const presentations = createBuiltinPresentations({ cwd: '/w' });
    const p = presenterFor((n) => presentations[n as keyof typeof presentations]);
    const metas: unknown[] = [
      undefined,
      null,
      42,
      'x',
      [],
      { before: 1, after: 2 },
      { count: -1 },
      { output: {} },
      { count: Number.POSITIVE_INFINITY },
    ];
    for (const meta of metas) {
      for (const name of Object.keys(presentations)) {
        const views = p.pair(
          name,
          {
            file_path: 'a',
            content: 'b',
            old_string: 'c',
            new_string: 'd',
            pattern: 'e',
            command: 'f',
            job_id: 'g',
            todos: [],
          },
          {
            value: 'v',
            isError: false,
            meta,
          },
        );
        expect(['generic', 'diff', 'terminal']).toContain(views.result.card);
      }
    }
  });
});
