import { chmod, readFile, stat, symlink, writeFile as fsWrite } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editTextFile as editFile, writeTextFile as writeFile } from '../src/files.js';
import { failure, setup, tempDir } from './helpers.js';

describe('writeFile', () => {
  it('creates a file and its parent directories', async () => {
    const { ws, root } = await setup();
    const out = await writeFile(ws, { file_path: 'a/b/c.txt', content: 'one\ntwo\n' });
    expect(await readFile(path.join(root, 'a/b/c.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(out).toMatchObject({
      change: 'created',
      before: null,
      after: 'one\ntwo\n',
      value: 'Created a/b/c.txt (2 lines)',
    });
  });

  it('overwrites, keeping the before-image, and reports an identical overwrite', async () => {
    const { ws, root } = await setup({ 'f.txt': 'old\n' });
    await chmod(path.join(root, 'f.txt'), 0o640);
    const out = await writeFile(ws, { file_path: 'f.txt', content: 'new\n' });
    expect(out).toMatchObject({
      change: 'updated',
      before: 'old\n',
      after: 'new\n',
      value: 'Overwrote f.txt (1 line)',
    });
    expect((await stat(path.join(root, 'f.txt'))).mode & 0o777).toBe(0o640);
    const same = await writeFile(ws, { file_path: 'f.txt', content: 'new\n' });
    expect(same).toMatchObject({ change: 'unchanged', before: 'new\n', after: 'new\n' });
    expect(same.value).toBe('f.txt already had this content (1 line); nothing changed');
  });

  it('drops images over the diff cap (the write still happens)', async () => {
    const { ws, root } = await setup({ 'big.txt': 'x'.repeat(100) });
    const out = await writeFile(ws, { file_path: 'big.txt', content: 'y'.repeat(200) }, { maxDiffBytes: 50 });
    expect(out).toMatchObject({ before: null, after: null, change: 'updated' });
    expect(await readFile(path.join(root, 'big.txt'), 'utf8')).toBe('y'.repeat(200));
  });

  it('refuses directories and paths that escape, also through a symlinked parent', async () => {
    const { ws, root } = await setup({ 'd/x': '' });
    expect((await failure(writeFile(ws, { file_path: 'd', content: '' }))).code).toBe('is-directory');
    const outside = await tempDir();
    await symlink(outside, path.join(root, 'out'));
    expect((await failure(writeFile(ws, { file_path: 'out/new.txt', content: 'x' }))).code).toBe(
      'outside-workspace',
    );
    expect((await failure(writeFile(ws, { file_path: '../x.txt', content: 'x' }))).code).toBe(
      'outside-workspace',
    );
    await expect(stat(path.join(outside, 'new.txt'))).rejects.toThrow();
  });
});

describe('editFile', () => {
  it('replaces a unique string', async () => {
    const { ws, root } = await setup({ 'a.ts': 'const a = 1;\nconst b = 2;\n' });
    const out = await editFile(ws, { file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' });
    expect(await readFile(path.join(root, 'a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    expect(out).toMatchObject({
      value: 'Edited a.ts: 1 replacement',
      before: 'const a = 1;\nconst b = 2;\n',
      replacements: 1,
    });
  });

  it('gives clear errors for a missing, ambiguous or no-op edit', async () => {
    const { ws } = await setup({ 'a.txt': 'x x x\n' });
    const missing = await failure(editFile(ws, { file_path: 'a.txt', old_string: 'y', new_string: 'z' }));
    expect(missing).toMatchObject({ code: 'edit-no-match' });
    expect(missing.message).toBe(
      'old_string was not found in a.txt; Read the file and copy the exact text, including whitespace',
    );
    const many = await failure(editFile(ws, { file_path: 'a.txt', old_string: 'x', new_string: 'z' }));
    expect(many.message).toBe(
      'old_string occurs 3 times in a.txt; add surrounding lines to make it unique, or set replace_all to change every occurrence',
    );
    const same = await failure(editFile(ws, { file_path: 'a.txt', old_string: 'x', new_string: 'x' }));
    expect(same.code).toBe('edit-no-change');
    expect(
      (await failure(editFile(ws, { file_path: 'no.txt', old_string: 'a', new_string: 'b' }))).code,
    ).toBe('not-found');
  });

  it('replace_all changes every occurrence', async () => {
    const { ws, root } = await setup({ 'a.txt': 'x x x\n' });
    const out = await editFile(ws, {
      file_path: 'a.txt',
      old_string: 'x',
      new_string: 'yy',
      replace_all: true,
    });
    expect(out.replacements).toBe(3);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('yy yy yy\n');
  });

  it('keeps $ patterns in new_string literal', async () => {
    const { ws, root } = await setup({ 'a.txt': 'price\n' });
    await editFile(ws, { file_path: 'a.txt', old_string: 'price', new_string: "$& $1 $$ $' $`" });
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe("$& $1 $$ $' $`\n");
  });

  it('matches LF old_string in a CRLF file and writes CRLF', async () => {
    const { ws, root } = await setup({ 'w.txt': 'one\r\ntwo\r\nthree\r\n' });
    await editFile(ws, { file_path: 'w.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
    expect(await readFile(path.join(root, 'w.txt'), 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('creates a file from an empty old_string, but never overwrites content that way', async () => {
    const { ws, root } = await setup({ 'full.txt': 'content' });
    const out = await editFile(ws, { file_path: 'new/file.md', old_string: '', new_string: '# Hi\n' });
    expect(out).toMatchObject({ change: 'created', before: null, after: '# Hi\n' });
    expect(await readFile(path.join(root, 'new/file.md'), 'utf8')).toBe('# Hi\n');
    expect(
      (await failure(editFile(ws, { file_path: 'full.txt', old_string: '', new_string: 'x' }))).code,
    ).toBe('file-exists');
  });

  it('refuses binary files and escapes', async () => {
    const { ws, root } = await setup({ 'b.bin': new Uint8Array([1, 0, 2, 3]) });
    expect((await failure(editFile(ws, { file_path: 'b.bin', old_string: 'a', new_string: 'b' }))).code).toBe(
      'binary-file',
    );
    const outside = await tempDir();
    await fsWrite(path.join(outside, 't.txt'), 'abc');
    await symlink(path.join(outside, 't.txt'), path.join(root, 't.txt'));
    expect((await failure(editFile(ws, { file_path: 't.txt', old_string: 'a', new_string: 'b' }))).code).toBe(
      'outside-workspace',
    );
    expect(await readFile(path.join(outside, 't.txt'), 'utf8')).toBe('abc');
  });

  it('refuses a text file that is not valid UTF-8 instead of rewriting it with replacement characters', async () => {
    // Latin-1 "café" (0xE9 alone is not UTF-8), past the binary sniffing window too.
    const latin1 = Buffer.concat([Buffer.from('x = 2\n'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]);
    const late = Buffer.concat([Buffer.from(`x = 2\n${'a'.repeat(10_000)}\n`), Buffer.from([0xff, 0x0a])]);
    const { ws, root } = await setup({ 'l1.txt': latin1, 'late.txt': late });
    for (const [name, bytes] of [
      ['l1.txt', latin1],
      ['late.txt', late],
    ] as const) {
      const error = await failure(
        editFile(ws, { file_path: name, old_string: 'x = 2', new_string: 'x = 3' }),
      );
      expect(error.code).toBe('not-utf8');
      expect(error.message).toContain(name);
      expect(await readFile(path.join(root, name))).toEqual(bytes);
    }
  });

  it('a unique replacement equals slicing the text around the match (property)', async () => {
    const { ws, root } = await setup();
    const file = path.join(root, 'p.txt');
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.string(),
        fc.string(),
        async (pre, needle, post, repl) => {
          fc.pre(repl !== needle);
          const text = pre + needle + post;
          fc.pre(text.indexOf(needle) === text.lastIndexOf(needle));
          await fsWrite(file, text);
          await editFile(ws, { file_path: 'p.txt', old_string: needle, new_string: repl });
          expect(await readFile(file, 'utf8')).toBe(pre + repl + post);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('concurrent changes to one file', () => {
  it('serialises Edits and Writes of the same file so no change is lost', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const { ws, root } = await setup({ 'c.txt': `${lines.join('\n')}\n` });
    // A symlinked alias of the same file shares the lock (locks are keyed by real path).
    await symlink(path.join(root, 'c.txt'), path.join(root, 'alias.txt'));
    await Promise.all(
      lines.map((l, i) =>
        editFile(ws, {
          file_path: i % 2 ? 'alias.txt' : 'c.txt',
          old_string: `${l}\n`,
          new_string: `LINE ${i}\n`,
        }),
      ),
    );
    expect(await readFile(path.join(root, 'c.txt'), 'utf8')).toBe(
      `${lines.map((_, i) => `LINE ${i}`).join('\n')}\n`,
    );
    const writes = await Promise.all(
      [1, 2, 3].map((n) => writeFile(ws, { file_path: 'w.txt', content: `v${n}\n` })),
    );
    expect(writes.map((w) => w.change).sort()).toEqual(['created', 'updated', 'updated']);
  });
});
