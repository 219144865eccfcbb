import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { sessionFiles } from './run.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

it('/compact <instructions> compacts with the instructions and says so', async () => {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-compact-'));
  const work = join(root, 'work');
  await mkdir(work);
  await writeFile(join(root, 's.json'), JSON.stringify(['first answer', 'second answer', 'the summary']));
  const input = ['one', 'two', '/compact keep the failing test names', '/exit', ''].join('\n');
  const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(
      'node',
      [BIN, '--script', join(root, 's.json'), '--cwd', work, '--data-dir', join(root, 'data')],
      {
        env: { PATH: process.env.PATH ?? '', HOME: root, NO_COLOR: '1' },
      },
    );
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(input);
  });
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/compaction: (full-)?summary \(manual compaction: keep the failing test names\)/);
  const [file] = await sessionFiles(join(root, 'data'));
  expect(await readFile(join(root, 'data', 'sessions', String(file)), 'utf8')).toContain('the summary');
}, 60_000);
