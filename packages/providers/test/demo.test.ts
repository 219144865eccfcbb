import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stepCountIs, streamText, type ToolSet } from 'ai';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEMO_DENIED_COMMAND,
  DEMO_EXHAUSTED_TEXT,
  DEMO_PERMISSIONS,
  demoModel,
  demoScript,
  findJobId,
} from '../src/index.js';
import { copyDemoWorkspace, demoWorkspacePath } from '../src/node.js';
import { looseTool } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'codeagent-demo-'));
  dirs.push(dir);
  return dir;
}

async function walk(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(root, full)));
    else out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out.sort();
}

/** Turns a `Bash(rm *)`-style deny rule into a test on the command (enough for this host stand-in). */
function deniedBy(command: string): string | undefined {
  for (const rule of DEMO_PERMISSIONS.rules.deny) {
    const match = /^Bash\((.*)\)$/u.exec(rule);
    const glob = match?.[1];
    if (glob === undefined) continue;
    const pattern = new RegExp(
      `^${glob
        .split('*')
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'))
        .join('.*')}$`,
      'u',
    );
    if (pattern.test(command)) return rule;
  }
  return undefined;
}

interface HostRun {
  readonly calls: Array<{ toolName: string; input: Record<string, unknown> }>;
  jobs: number;
}

/** A stand-in for a host: the built-in tools over a real temp workspace, with the demo's permission rule. */
function hostTools(
  cwd: string,
  run: HostRun,
  options: { enforceDeny: boolean; denyTools?: readonly string[] },
): ToolSet {
  const inside = (file: unknown) => {
    expect(typeof file).toBe('string');
    expect(path.isAbsolute(String(file))).toBe(false);
    return path.join(cwd, String(file));
  };
  const record = (toolName: string, execute: (input: Record<string, unknown>) => unknown) =>
    looseTool(async (input) => {
      run.calls.push({ toolName, input });
      if (options.denyTools?.includes(toolName)) {
        throw new Error(`Permission denied for ${toolName} (the user said no)`);
      }
      expect(typeof input._intent === 'string' || input._intent === undefined).toBe(true);
      return execute(input);
    });
  return {
    Glob: record('Glob', async () => (await walk(cwd)).filter((f) => f.endsWith('.ts'))),
    Read: record('Read', async (input) => readFile(inside(input.file_path), 'utf8')),
    Grep: record('Grep', async (input) => {
      const hits: string[] = [];
      for (const file of await walk(path.join(cwd, String(input.path)))) {
        const text = await readFile(path.join(cwd, String(input.path), file), 'utf8');
        text.split('\n').forEach((line, i) => {
          if (line.includes(String(input.pattern))) hits.push(`${file}:${i + 1}:${line}`);
        });
      }
      return hits.join('\n');
    }),
    Edit: record('Edit', async (input) => {
      const file = inside(input.file_path);
      const before = await readFile(file, 'utf8');
      if (!before.includes(String(input.old_string))) throw new Error('old_string not found');
      await writeFile(file, before.replace(String(input.old_string), String(input.new_string)));
      return 'edited';
    }),
    Write: record('Write', async (input) => {
      await writeFile(inside(input.file_path), String(input.content));
      return 'written';
    }),
    Bash: record('Bash', async (input) => {
      const command = String(input.command);
      const rule = options.enforceDeny ? deniedBy(command) : undefined;
      if (rule !== undefined) throw new Error(`Permission denied for Bash (rule ${rule})`);
      if (input.run_in_background === true) {
        run.jobs += 1;
        return `Started background job bg_${run.jobs} (use job_output)`;
      }
      const result = spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8' });
      return { output: result.stdout + result.stderr, exitCode: result.status };
    }),
    job_output: record('job_output', (input) => `job ${String(input.job_id)}: build finished`),
    job_kill: record('job_kill', (input) => `Stopped ${String(input.job_id)}`),
    TodoWrite: record('TodoWrite', (input) => `${(input.todos as unknown[]).length} todos`),
  };
}

async function runDemo(options: {
  enforceDeny: boolean;
  disableDelays?: boolean;
  denyTools?: readonly string[];
}) {
  const cwd = await copyDemoWorkspace(path.join(await tempDir(), 'ws'));
  const run: HostRun = { calls: [], jobs: 0 };
  const model = demoModel({ disableDelays: options.disableDelays ?? true });
  const result = streamText({
    model,
    prompt: 'Show me around.',
    tools: hostTools(cwd, run, options),
    stopWhen: stepCountIs(30),
  });
  const types = new Set<string>();
  for await (const part of result.fullStream) types.add(part.type);
  return { cwd, run, model, result, types, steps: await result.steps, text: await result.text };
}

describe('the demo script through streamText and a stand-in host', () => {
  it('walks every built-in tool, meets the denial and acknowledges it', async () => {
    // With the script's own simulated latency, as a host runs it.
    const { cwd, run, steps, text, types, model } = await runDemo({
      enforceDeny: true,
      disableDelays: false,
    });
    const names = new Set(run.calls.map((c) => c.toolName));
    expect([...names].sort()).toEqual([
      'Bash',
      'Edit',
      'Glob',
      'Grep',
      'Read',
      'TodoWrite',
      'Write',
      'job_kill',
      'job_output',
    ]);
    expect(steps).toHaveLength(demoScript().length);
    expect(model.remaining).toBe(0);
    expect(types.has('reasoning-delta')).toBe(true);
    expect(steps.at(-1)?.finishReason).toBe('stop');
    for (const step of steps) expect(step.usage.inputTokens).toBeGreaterThan(0);

    // The tool calls did real work in the copy, with relative paths.
    expect(await readFile(path.join(cwd, 'src/greet.ts'), 'utf8')).toContain(
      'return `Hello, $' + '{name}!`;',
    );
    expect(await readFile(path.join(cwd, 'src/farewell.ts'), 'utf8')).toContain('export function farewell');
    expect((await stat(path.join(cwd, 'build'))).isDirectory()).toBe(true);

    // Bash: coloured output, a failing command, a background job whose id reaches job_output.
    const bashResults = steps.flatMap((s) => s.toolResults).filter((r) => r.toolName === 'Bash');
    const outputs = bashResults.map((r) => r.output as { output?: string; exitCode?: number } | string);
    expect(outputs.some((o) => typeof o === 'object' && o.output?.includes('\u001b[1;32mPASS'))).toBe(true);
    expect(outputs.some((o) => typeof o === 'object' && o.exitCode === 1)).toBe(true);
    // Each background job's id reaches the right follow-up, whatever order the host reports them in.
    const started = run.calls.filter((c) => c.toolName === 'Bash' && c.input.run_in_background === true);
    expect(started.map((c) => c.input.description)).toEqual(['Pretend build', 'Pretend file watcher']);
    expect(run.calls.find((c) => c.toolName === 'job_output')?.input.job_id).toBe('bg_1');
    expect(run.calls.find((c) => c.toolName === 'job_kill')?.input.job_id).toBe('bg_2');

    // The denied call comes back as an error result, and the last turn says so.
    const denied = steps.flatMap((s) => s.content).find((p) => p.type === 'tool-error');
    expect(denied).toMatchObject({ toolName: 'Bash', input: { command: DEMO_DENIED_COMMAND } });
    expect(text).toContain(`The permission gate denied \`${DEMO_DENIED_COMMAND}\``);
    expect(text).toMatch(/1 denied by the permission gate/u);
  });

  it('tells the truth when the host allows the removal instead', async () => {
    const { cwd, text } = await runDemo({ enforceDeny: false });
    expect(text).toContain('your policy allowed it');
    await expect(stat(path.join(cwd, 'build'))).rejects.toThrow();
  });

  it('never claims a step the host refused: denied edits, writes and jobs are reported as denied', async () => {
    const { cwd, text } = await runDemo({
      enforceDeny: true,
      denyTools: ['Edit', 'Write', 'TodoWrite', 'job_kill'],
    });
    expect(text).not.toContain('created `src/farewell.ts`');
    expect(text).not.toContain('switched `greet()`');
    expect(text).not.toContain('updated the todo list');
    expect(text).not.toContain('stopped the file watcher');
    expect(text).toContain('creating `src/farewell.ts` was denied by the permission gate');
    expect(text).toContain('the edit of `src/greet.ts` was denied by the permission gate');
    expect(text).toContain('the todo list update was denied by the permission gate');
    expect(text).toMatch(/5 denied by the permission gate/u);
    await expect(stat(path.join(cwd, 'src/farewell.ts'))).rejects.toThrow();
  });

  it('says the listing failed instead of describing files it never saw', async () => {
    const { text, run } = await runDemo({ enforceDeny: true, denyTools: ['Glob', 'Read', 'Bash'] });
    expect(text).toContain('listing the files was denied by the permission gate');
    expect(text).toContain('no shell command ran');
    expect(text).not.toContain('ran shell commands');
    expect(run.calls.some((c) => c.toolName === 'job_output')).toBe(false);
  });

  it('is deterministic: two runs make the same calls with the same arguments', async () => {
    const a = await runDemo({ enforceDeny: true });
    const b = await runDemo({ enforceDeny: true });
    expect(b.run.calls).toEqual(a.run.calls);
    expect(b.text).toBe(a.text);
  });

  it('answers a closing text once the tour is over', async () => {
    const { model } = await runDemo({ enforceDeny: true });
    const again = streamText({ model, prompt: 'and now?' });
    expect(await again.text).toBe(DEMO_EXHAUSTED_TEXT);
  });

  it('uses only workspace-relative paths that exist in the shipped workspace', async () => {
    const files = await walk(demoWorkspacePath());
    // Step functions are evaluated on an empty prompt: their calls do not depend on what came before.
    const empty = {
      prompt: [],
      requestIndex: 0,
      toolResults: [],
      allToolResults: [],
      lastUserText: '',
      toolNames: [],
    };
    const calls = demoScript().flatMap((entry) => {
      const step = typeof entry === 'function' ? entry(empty) : entry;
      return typeof step === 'object' ? (step.parts ?? []).filter((p) => p.type === 'tool-call') : [];
    });
    expect(calls.filter((c) => c.toolName === 'Read')).toHaveLength(2);
    for (const call of calls) {
      const input = call.input as Record<string, unknown>;
      if (call.toolName === 'Read' || call.toolName === 'Edit') expect(files).toContain(input.file_path);
      if (call.toolName === 'Edit') {
        const source = await readFile(path.join(demoWorkspacePath(), String(input.file_path)), 'utf8');
        expect(source).toContain(input.old_string);
      }
      if (call.toolName === 'Write') expect(files).not.toContain(input.file_path);
    }
    expect(deniedBy(DEMO_DENIED_COMMAND)).toBe('Bash(rm *)');
  });
});

describe('findJobId', () => {
  it.each([
    ['{"job_id":"job_3"}', 'job_3'],
    ['{"jobId": 12}', '12'],
    ['Started background job bg_7 (use job_output)', 'bg_7'],
    ['job_id: abc123', 'abc123'],
    ['Running in background with ID: job-42', 'job-42'],
    [
      'Started background job job-1 (pid 4242). Read its output with job_output {"job_id": "job-1"}; stop it with job_kill.',
      'job-1',
    ],
    ['job_output {"job_id": "job-9"}', 'job-9'],
    ['nothing useful here', undefined],
    ['', undefined],
  ])('finds the id in %j', (text, id) => {
    expect(findJobId(text)).toBe(id);
  });
});

describe('findJobId on hostile input', () => {
  it('never throws and stays fast on huge adversarial text', () => {
    expect(findJobId('job_'.repeat(200_000))).toBeUndefined();
    expect(findJobId(`id ${'a'.repeat(500_000)}`)).toBeUndefined();
    expect(findJobId(123 as never)).toBeUndefined();
  });

  it('answers a string or undefined for any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const id = findJobId(text);
        return id === undefined || (typeof id === 'string' && id.length > 0 && text.includes(id));
      }),
      { numRuns: 500 },
    );
  });
});

describe('copyDemoWorkspace', () => {
  it('copies the sample files into a new folder', async () => {
    const dest = path.join(await tempDir(), 'nested', 'ws');
    const target = await copyDemoWorkspace(dest);
    expect(target).toBe(path.resolve(dest));
    expect(await walk(target)).toEqual(await walk(demoWorkspacePath()));
  });

  it('refuses a non-empty folder unless told to overwrite', async () => {
    const dest = await tempDir();
    await writeFile(path.join(dest, 'keep.txt'), 'mine');
    await expect(copyDemoWorkspace(dest)).rejects.toThrow(/not empty/u);
    await copyDemoWorkspace(dest, { overwrite: true });
    expect(await readFile(path.join(dest, 'keep.txt'), 'utf8')).toBe('mine');
    expect(await walk(dest)).toContain('src/greet.ts');
  });

  it('refuses a file path and an empty path', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'f');
    await writeFile(file, '');
    await expect(copyDemoWorkspace(file)).rejects.toThrow(/not a directory/u);
    await expect(copyDemoWorkspace('')).rejects.toThrow(TypeError);
  });
});
