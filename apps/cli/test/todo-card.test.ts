// TodoWrite in the terminal: the plan is printed once (the result's table), not as the call card's checklist and
// again as the table.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const run = promisify(execFile);

describe('the TodoWrite card in the terminal', () => {
  it('shows each todo once (the table), with the counts on the call card', async () => {
    const root = await mkdtemp(join(tmpdir(), 'codeagent-todo-card-'));
    try {
      await mkdir(join(root, 'work'));
      const todos = [
        { content: 'Read the notes', status: 'completed', activeForm: 'Reading the notes' },
        { content: 'Ship the release', status: 'in_progress', activeForm: 'Shipping' },
        { content: 'Tell the team', status: 'pending', activeForm: 'Telling the team' },
      ];
      await writeFile(
        join(root, 's.json'),
        JSON.stringify([
          { parts: [{ type: 'tool-call', toolName: 'TodoWrite', input: { todos } }] },
          { parts: [{ type: 'text', text: 'Planned.' }] },
        ]),
      );
      const { stdout, stderr } = await run(
        'node',
        [BIN, '-p', 'plan', '--script', join(root, 's.json'), '--cwd', join(root, 'work')].concat([
          '--data-dir',
          join(root, 'data'),
          '--mode',
          'bypass',
          '--verbose',
        ]),
        { env: { PATH: process.env.PATH ?? '', HOME: root, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 },
      );
      // Cards go to stderr with --verbose; the answer to stdout.
      expect(stdout).toBe('Planned.\n');
      expect(stderr).toContain('● Update todos');
      expect(stderr).toContain('3 items: 1 completed, 1 in progress, 1 pending');
      expect(stderr).toMatch(/content\s+│ status\s+│ activeForm/);
      for (const todo of todos) expect(stderr.split(todo.content).length - 1, todo.content).toBe(1);
      expect(stderr).not.toContain('[x]');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
