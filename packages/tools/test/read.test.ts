import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTextFile as readFile } from '../src/read.js';
import { Workspace } from '../src/workspace.js';
import { failure, setup, tempDir } from './helpers.js';

describe('readFile', () => {
  it('returns cat -n numbered lines and the raw text with a language', async () => {
    const { ws } = await setup({ 'src/a.ts': 'const a = 1;\n\tindented\n' });
    const out = await readFile(ws, { file_path: 'src/a.ts' });
    expect(out.value).toBe('     1\tconst a = 1;\n     2\t\tindented');
    expect(out).toMatchObject({
      text: 'const a = 1;\n\tindented',
      lang: 'typescript',
      startLine: 1,
      endLine: 2,
      totalLines: 2,
      displayPath: 'src/a.ts',
    });
  });

  it('honours offset and limit and says how to read more', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    const { ws } = await setup({ 'f.txt': lines });
    const out = await readFile(ws, { file_path: 'f.txt', offset: 10, limit: 3 });
    expect(out.value).toBe(
      '    10\tline 10\n    11\tline 11\n    12\tline 12\n\n[Showing lines 10-12 of 30; pass offset=13 to read more]',
    );
    const zero = await readFile(ws, { file_path: 'f.txt', offset: 0, limit: 1 });
    expect(zero.value.startsWith('     1\tline 1')).toBe(true);
    const past = await readFile(ws, { file_path: 'f.txt', offset: 99 });
    expect(past.value).toBe('[offset 99 is past the end of f.txt; the file has 30 lines]');
  });

  it('caps the default line count and long lines', async () => {
    const { ws } = await setup({ 'big.txt': `${'x'.repeat(50)}\n`.repeat(5) });
    const out = await readFile(ws, { file_path: 'big.txt' }, { defaultLimit: 2, maxLineLength: 10 });
    expect(out.value).toBe(
      `     1\t${'x'.repeat(10)}… [40 more characters]\n     2\t${'x'.repeat(10)}… [40 more characters]\n\n[Showing lines 1-2 of 5; pass offset=3 to read more]`,
    );
  });

  it('says when a file is empty', async () => {
    const { ws } = await setup({ 'empty.md': '' });
    expect((await readFile(ws, { file_path: 'empty.md' })).value).toBe('[empty.md is empty]');
  });

  it('refuses binary files, directories, missing files and non-regular files', async () => {
    const { ws, root } = await setup({ 'img.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]) });
    expect((await failure(readFile(ws, { file_path: 'img.png' }))).code).toBe('binary-file');
    await mkdir(path.join(root, 'dir'));
    expect((await failure(readFile(ws, { file_path: 'dir' }))).message).toBe(
      'dir is a directory; use Glob to list its files',
    );
    expect((await failure(readFile(ws, { file_path: 'nope.txt' }))).message).toBe('File not found: nope.txt');
    const fifo = await import('node:child_process').then((cp) =>
      cp.execFileSync('mkfifo', [path.join(root, 'pipe')]),
    );
    expect(fifo).toBeDefined();
    expect((await failure(readFile(ws, { file_path: 'pipe' }))).code).toBe('not-a-file');
  });

  it('guards large files but streams a range of them', async () => {
    const body = Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`).join('\n');
    const { ws } = await setup({ 'huge.log': body });
    const error = await failure(readFile(ws, { file_path: 'huge.log' }, { maxBytes: 1000 }));
    expect(error.code).toBe('file-too-large');
    expect(error.message).toMatch(/^huge\.log is .* over the 1000 bytes Read limit; pass offset and limit/);
    const out = await readFile(ws, { file_path: 'huge.log', offset: 4999, limit: 5 }, { maxBytes: 1000 });
    expect(out.value).toBe('  4999\trow 4999\n  5000\trow 5000');
    const mid = await readFile(ws, { file_path: 'huge.log', offset: 2, limit: 1 }, { maxBytes: 1000 });
    expect(mid.value).toBe('     2\trow 2\n\n[Showing lines 2-2; pass offset=3 to read more]');
    expect(mid.totalLines).toBeUndefined();
  });

  it('refuses paths outside the workspace, including through symlinks', async () => {
    const { ws, root } = await setup({ 'a.txt': 'a' });
    const outside = await tempDir();
    await writeFile(path.join(outside, 's.txt'), 'secret');
    await symlink(path.join(outside, 's.txt'), path.join(root, 'ln'));
    expect((await failure(readFile(ws, { file_path: '../a.txt' }))).code).toBe('outside-workspace');
    expect((await failure(readFile(ws, { file_path: path.join(outside, 's.txt') }))).code).toBe(
      'outside-workspace',
    );
    expect((await failure(readFile(ws, { file_path: 'ln' }))).code).toBe('outside-workspace');
  });

  it('keeps escape sequences and odd text in the file as they are', async () => {
    const { ws } = await setup({
      'x.txt': '<script>alert(1)</script>\n\u001b[31mred\u001b[0m\r\nb\u202eidi',
    });
    const out = await readFile(ws, { file_path: 'x.txt' });
    expect(out.text).toBe('<script>alert(1)</script>\n\u001b[31mred\u001b[0m\nb\u202eidi');
  });
});

describe('streamed ranges of large files', () => {
  it('give the same lines as the in-memory path (property)', async () => {
    const root = await tempDir();
    const ws = new Workspace({ cwd: root });
    const file = path.join(root, 'p.txt');
    const line = fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '\r', '\t'), maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 15 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 18 }),
        fc.integer({ min: 1, max: 18 }),
        async (ls, trailing, offset, limit) => {
          await writeFile(file, ls.join('\n') + (trailing ? '\n' : ''));
          const limits = { maxLineLength: 10 };
          const memory = await readFile(
            ws,
            { file_path: 'p.txt', offset, limit },
            { ...limits, maxBytes: 1e9 },
          );
          const streamed = await readFile(
            ws,
            { file_path: 'p.txt', offset, limit },
            { ...limits, maxBytes: 0 },
          );
          expect(streamed.text).toBe(memory.text);
          expect(streamed.endLine).toBe(memory.endLine);
          expect(streamed.value.includes('pass offset=')).toBe(memory.value.includes('pass offset='));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('keeps memory bounded on a huge single-line file', async () => {
    const root = await tempDir();
    const size = 100 * 1000 * 1000;
    const file = path.join(root, 'min.js');
    execFileSync('bash', [
      '-c',
      `head -c ${size} /dev/zero | tr '\\0' x > ${file}; printf '\\nsecond\\n' >> ${file}`,
    ]);
    const ws = new Workspace({ cwd: root });
    const before = process.memoryUsage().rss;
    const out = await readFile(ws, { file_path: 'min.js', offset: 1, limit: 2 }, { maxLineLength: 100 });
    const growth = process.memoryUsage().rss - before;
    expect(out.value).toBe(`     1\t${'x'.repeat(100)}… [${size - 100} more characters]\n     2\tsecond`);
    // Loose: holding the 100 MB line as a string would grow RSS by at least that much.
    expect(growth).toBeLessThan(80 * 1024 * 1024);
  });
});

describe('abort', () => {
  it('stops reading a huge single-line file when the signal fires', async () => {
    const root = await tempDir();
    const size = 100 * 1000 * 1000;
    const file = path.join(root, 'one-line.min.js');
    execFileSync('bash', ['-c', `head -c ${size} /dev/zero | tr '\\0' x > ${file}`]);
    const ws = new Workspace({ cwd: root });
    const controller = new AbortController();
    const reading = readFile(
      ws,
      { file_path: 'one-line.min.js', offset: 1, limit: 1 },
      {},
      controller.signal,
    );
    setTimeout(() => controller.abort(), 20);
    // Without the check the read runs to the end of the 100 MB line and resolves with it.
    await expect(reading).rejects.toMatchObject({
      code: 'aborted',
      message: 'Read interrupted: the call was aborted',
    });
    const early = new AbortController();
    early.abort();
    await expect(readFile(ws, { file_path: 'one-line.min.js' }, {}, early.signal)).rejects.toMatchObject({
      code: 'aborted',
    });
  });
});

describe('symlink swaps after the check', () => {
  it('the open refuses a final-component symlink (O_NOFOLLOW)', async () => {
    const { READ_FLAGS, WRITE_FLAGS } = await import('../src/workspace.js');
    const { open } = await import('node:fs/promises');
    const root = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, 's.txt'), 'secret');
    await symlink(path.join(outside, 's.txt'), path.join(root, 'swapped'));
    await expect(open(path.join(root, 'swapped'), READ_FLAGS)).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(open(path.join(root, 'swapped'), WRITE_FLAGS)).rejects.toMatchObject({ code: 'ELOOP' });
  });
});
