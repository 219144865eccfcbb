import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sessionFiles } from './run.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

function runWithInput(args: string[], input: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('node', [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('the REPL with piped input', () => {
  it('handles slash commands and runs a skill with arguments as the turn input', async () => {
    const root = await mkdtemp(join(tmpdir(), 'codeagent-repl-'));
    const work = join(root, 'work');
    const skill = join(work, '.codeagent', 'skills', 'say-hello');
    await mkdir(skill, { recursive: true });
    await writeFile(
      join(skill, 'SKILL.md'),
      '---\nname: say-hello\ndescription: Greets someone by name.\n---\nSay hello to $ARG1 from $ARG2, all args: $ARGUMENTS\n',
    );
    await writeFile(join(root, 's.json'), JSON.stringify(['Hello, Ada!']));
    const input = [
      '/help',
      '/mode plan',
      '/mode',
      '/mode yolo',
      '/nope-not-a-skill',
      '/say-hello Ada Paris',
      '/sessions',
      '/exit',
      '',
    ].join('\n');
    const r = await runWithInput(
      ['--script', join(root, 's.json'), '--cwd', work, '--data-dir', join(root, 'data')],
      input,
      {
        HOME: root,
        NO_COLOR: '1',
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('/compact');
    expect(r.stdout).toMatch(/\/say-hello\s+Greets someone by name\./);
    expect(r.stdout).toContain('mode: plan');
    expect(r.stdout).toContain('unknown mode "yolo"');
    expect(r.stdout).toMatch(/nope-not-a-skill.*available.*say-hello/is);
    expect(r.stdout).toContain('Hello, Ada!');
    const [file] = await sessionFiles(join(root, 'data'));
    const saved = await readFile(join(root, 'data', 'sessions', String(file)), 'utf8');
    expect(saved).toContain('Say hello to Ada from Paris, all args: Ada Paris');
    // The model input is the client's one expansion (the same text `-p '/say-hello Ada Paris'` sends).
    expect(saved).toContain(
      JSON.stringify('/say-hello Ada Paris\n\n<skill name="say-hello">\nSay hello to Ada from Paris').slice(
        1,
        -1,
      ),
    );
    expect(r.stdout).toMatch(/\d{4}-\d\d-\d\dT.*\/say-hello Ada Paris/);
  });

  it('/mode changes the mode the gate decides with for the next turn (the mode lives in the gate alone)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'codeagent-repl-mode-'));
    const work = join(root, 'work');
    await mkdir(work);
    const write = (file: string) => ({
      parts: [{ type: 'tool-call', toolName: 'Write', input: { file_path: file, content: `${file}\n` } }],
    });
    // plan denies writes, accept_edits allows them without asking: no approval is needed on a pipe.
    await writeFile(
      join(root, 's.json'),
      JSON.stringify([write('planned.txt'), 'one', write('edited.txt'), 'two']),
    );
    const input = ['/mode plan', 'first', '/mode accept_edits', 'second', '/mode', '/exit', ''];
    const r = await runWithInput(
      ['--script', join(root, 's.json'), '--cwd', work, '--data-dir', join(root, 'data')],
      input.join('\n'),
      { HOME: root, NO_COLOR: '1' },
    );
    expect(r.code, r.stderr).toBe(0);
    const files = await readdir(work);
    expect(files).not.toContain('planned.txt');
    expect(files).toContain('edited.txt');
    expect(r.stdout).toMatch(/mode: accept_edits\s*$/m);
  });
});
