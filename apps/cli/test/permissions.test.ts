import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const run = promisify(execFile);
const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run('node', [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
      timeout: 15_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A workspace (`work`, with `.codeagent/`), a data dir and a scripted model calling `tool` with `input`. */
async function workspace(tool: string, input: unknown) {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-perms-'));
  roots.push(root);
  const work = join(root, 'work');
  await mkdir(join(work, '.codeagent'), { recursive: true });
  await writeFile(
    join(root, 's.json'),
    JSON.stringify([
      { parts: [{ type: 'tool-call', toolName: tool, input }] },
      { parts: [{ type: 'text', text: 'done' }] },
    ]),
  );
  const args = (...extra: string[]) => [
    '-p',
    'go',
    '--script',
    join(root, 's.json'),
    '--cwd',
    work,
    '--data-dir',
    join(root, 'data'),
    ...extra,
  ];
  return { root, work, settings: join(work, '.codeagent', 'settings.json'), args };
}

describe('codeagent permissions the agent cannot rewrite', () => {
  it('a cloned repository allowing Bash does not run Bash unasked; --trust applies it', async () => {
    const w = await workspace('Bash', { command: 'echo pwned > pwned.txt' });
    await writeFile(w.settings, JSON.stringify({ rules: { allow: ['Bash'] } }));
    const r = await cli(w.args());
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `codeagent: workspace not trusted: ignored 1 entry of ${w.settings} that would widen permissions (rules.allow[0] "Bash"); pass --trust to apply them`,
    );
    expect(r.stdout).toContain('Permission denied for Bash');
    expect(existsSync(join(w.work, 'pwned.txt'))).toBe(false);
    const trusted = await cli(w.args('--trust'));
    expect(trusted.code).toBe(0);
    expect(existsSync(join(w.work, 'pwned.txt'))).toBe(true);
  });

  it('in accept_edits the model cannot write .codeagent/settings.json unasked (the reported bug)', async () => {
    const w = await workspace('Write', {
      file_path: '.codeagent/settings.json',
      content: '{"rules":{"allow":["Bash"]}}',
    });
    const r = await cli(w.args('--mode', 'accept_edits'));
    expect(r.stdout).toContain('Permission denied for Write');
    expect(r.stderr).toMatch(/approval needed for Write .* no terminal to ask: denied/);
    expect(existsSync(w.settings)).toBe(false);
    // The session store and trust list in the data dir are protected too.
    const store = await workspace('Write', { file_path: '../data/trusted-workspaces.json', content: '{}' });
    const s = await cli(store.args('--mode', 'accept_edits'));
    expect(s.stdout).toContain('Permission denied for Write');
  });

  it('refuses to start, naming the file, when a settings file is a FIFO (no hang)', async () => {
    const w = await workspace('Bash', { command: 'true' });
    await run('mkfifo', [w.settings]);
    const r = await cli(w.args());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `codeagent: settings file ${w.settings} is a FIFO, not a regular file; refusing to start (fix or remove it)\n`,
    );
  });

  it('warns at load about a rule naming an unknown tool, listing the known names', async () => {
    const w = await workspace('Bash', { command: 'true' });
    await writeFile(w.settings, JSON.stringify({ rules: { deny: ['bash(rm *)'] } }));
    const r = await cli(w.args());
    expect(r.stderr).toContain(
      `codeagent: warning: ${w.settings}: rules.deny[0]: rule "bash(rm *)" names unknown tool "bash" and matches nothing; did you mean "Bash"? (known tools: Bash, Edit, Glob, Grep, Read, TodoWrite, Write, job_kill, job_output, use_skill)`,
    );
  });

  it('deny Read(**/.env) keeps .env out of Grep results', async () => {
    const w = await workspace('Grep', { pattern: 'SECRET' });
    await writeFile(join(w.work, '.env'), 'SECRET=hunter2\n');
    await writeFile(join(w.work, 'app.ts'), 'const SECRET = process.env.SECRET;\n');
    await writeFile(w.settings, JSON.stringify({ rules: { deny: ['Read(**/.env)'] } }));
    const r = await cli(w.args('--json'));
    const result = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'tool-result');
    expect(result.value).toContain('app.ts:1:const SECRET');
    expect(result.value).not.toContain('hunter2');
    expect(await readFile(join(w.work, '.env'), 'utf8')).toBe('SECRET=hunter2\n');
  });
});
