import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it, vi } from 'vitest';
import { quickStart } from './readme-example.js';

it('the README quick start is this file, verbatim', async () => {
  const readme = await readFile(path.join(import.meta.dirname, '../README.md'), 'utf8');
  const example = await readFile(path.join(import.meta.dirname, 'readme-example.ts'), 'utf8');
  expect(readme).toContain(example.trim());
});

it('the README quick start runs', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    expect(await quickStart(await mkdtemp(path.join(tmpdir(), 'readme-')))).toBe('Fix the build v4');
    expect(String(log.mock.calls[0]?.[0])).toMatch(
      /changed by another writer \(expected version 1, stored version 4\)/,
    );
  } finally {
    log.mockRestore();
  }
});
