import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it, vi } from 'vitest';
import { makeRepo, put } from './helpers.js';
import { systemFor } from './readme-example.js';

it('the README quick start is this file, verbatim', async () => {
  const readme = await readFile(path.join(import.meta.dirname, '../README.md'), 'utf8');
  const example = await readFile(path.join(import.meta.dirname, 'readme-example.ts'), 'utf8');
  expect(readme).toContain(example.trim());
});

it('the README quick start runs against a real repository', async () => {
  const { repo, cwd } = await makeRepo();
  await put(path.join(repo, 'AGENTS.md'), 'Use pnpm.\n');
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const text = await systemFor(cwd, ['Read', 'Bash']);
    expect(text).toContain('Use pnpm.');
    expect(text.trimEnd().endsWith('Answer in British English.')).toBe(true);
    expect(log.mock.calls[0]?.[0]).toMatch(/^system prompt \d+ bytes, instructions: AGENTS.md$/u);
  } finally {
    log.mockRestore();
  }
});
