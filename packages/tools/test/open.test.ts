import { link, mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTextFile, previewEdit, previewWrite, writeTextFile } from '../src/files.js';
import { createBuiltinToolkit } from '../src/index.js';
import { readVerified, writeVerified } from '../src/open.js';
import { readTextFile } from '../src/read.js';
import { failure, setup, tempDir } from './helpers.js';

describe('a directory swapped for a symlink between the check and the open (ADR 0110)', () => {
  async function swapped() {
    const { root, ws } = await setup({ 'dir/a.txt': 'inside\n' });
    const outside = await tempDir();
    await writeFile(path.join(outside, 'a.txt'), 'outside secret\n');
    const resolved = await ws.resolve('dir/a.txt');
    // The race, made deterministic: after the confinement check, `dir` becomes a link to a directory outside.
    await rename(path.join(root, 'dir'), path.join(root, 'dir-old'));
    await symlink(outside, path.join(root, 'dir'));
    return { resolved, outside, ws };
  }

  it('a write through the verified open is refused and the outside file is untouched', async () => {
    const { resolved, outside } = await swapped();
    const error = await failure(writeVerified(resolved.real, resolved.display, 'pwned\n'));
    expect(error.code).toBe('outside-workspace');
    expect(error.message).toMatch(/^dir\/a\.txt changed while it was being opened/);
    expect(await readFile(path.join(outside, 'a.txt'), 'utf8')).toBe('outside secret\n');
  });

  it('a read through the verified open is refused', async () => {
    const { resolved } = await swapped();
    const error = await failure(readVerified(resolved.real, resolved.display));
    expect(error.code).toBe('outside-workspace');
  });

  it('the tools re-resolve and refuse the link itself when it leads outside', async () => {
    const { ws } = await swapped();
    expect((await failure(readTextFile(ws, { file_path: 'dir/a.txt' }))).code).toBe('outside-workspace');
    expect((await failure(writeTextFile(ws, { file_path: 'dir/a.txt', content: 'x' }))).code).toBe(
      'outside-workspace',
    );
  });
});

describe('hard links', () => {
  async function linked() {
    const { root, ws } = await setup({ 'a.txt': 'one\ntwo\n' });
    const elsewhere = await tempDir();
    await link(path.join(root, 'a.txt'), path.join(elsewhere, 'other-name.txt'));
    return { root, ws, other: path.join(elsewhere, 'other-name.txt') };
  }

  it('Write and Edit refuse a file with more than one link; the other name keeps its content', async () => {
    const { ws, other } = await linked();
    const w = await failure(writeTextFile(ws, { file_path: 'a.txt', content: 'changed\n' }));
    expect(w.code).toBe('hard-link');
    expect(w.message).toBe(
      'a.txt has 2 hard links; writing would change every other name of it too (maybe outside the workspace), so it is refused unless the user allows writes through hard links',
    );
    const e = await failure(editTextFile(ws, { file_path: 'a.txt', old_string: 'one', new_string: 'uno' }));
    expect(e.code).toBe('hard-link');
    expect(await readFile(other, 'utf8')).toBe('one\ntwo\n');
  });

  it('the preview says so before anyone is asked', async () => {
    const { ws } = await linked();
    expect(
      (await failure(previewEdit(ws, { file_path: 'a.txt', old_string: 'one', new_string: 'uno' }))).code,
    ).toBe('hard-link');
    expect((await failure(previewWrite(ws, { file_path: 'a.txt', content: 'x' }))).code).toBe('hard-link');
  });

  it('the write check on the open descriptor refuses too (a link made after the first check)', async () => {
    const { root } = await setup({ 'b.txt': 'b\n' });
    const elsewhere = await tempDir();
    await link(path.join(root, 'b.txt'), path.join(elsewhere, 'b2.txt'));
    expect((await failure(writeVerified(path.join(root, 'b.txt'), 'b.txt', 'x'))).code).toBe('hard-link');
    expect(await readFile(path.join(elsewhere, 'b2.txt'), 'utf8')).toBe('b\n');
  });

  it('allowHardLinks (set by a host from the user approval) lets the write through', async () => {
    const { ws, other } = await linked();
    await editTextFile(
      ws,
      { file_path: 'a.txt', old_string: 'one', new_string: 'uno' },
      { allowHardLinks: true },
    );
    expect(await readFile(other, 'utf8')).toBe('uno\ntwo\n');
  });

  it('an approval that showed the hard links allows that one write; without it the write is refused', async () => {
    const { root, other } = await linked();
    const toolkit = createBuiltinToolkit({ cwd: root });
    const edit = toolkit.tools.find((t) => t.name === 'Edit');
    const run = (callId: string, args: Record<string, unknown>) =>
      edit?.execute(args, {
        callId,
        name: 'Edit',
        signal: new AbortController().signal,
        cwd: root,
        intent: null,
      }) as Promise<{
        value: string;
      }>;
    const args = { file_path: 'a.txt', old_string: 'one', new_string: 'uno' };
    // The precheck does not refuse: whether to allow it is the user's call, so the gate may ask.
    expect(
      await edit?.precheck?.(args, {
        callId: 'p',
        name: 'Edit',
        signal: new AbortController().signal,
        cwd: root,
        intent: null,
      }),
    ).toBeUndefined();
    const p = await toolkit.preview('Edit', args, 'asked');
    expect(p?.ok && p.view.title).toBe(
      'Edit a.txt (⚠ 2 hard links: approving also changes the file under its other names, maybe outside the workspace)',
    );
    // Allowed without an approval (say by a mode): refused.
    expect((await run('not-asked', args)).value).toMatch(/^a\.txt has 2 hard links/);
    expect(await readFile(other, 'utf8')).toBe('one\ntwo\n');
    // The approved call goes through, once.
    expect((await run('asked', args)).value).toBe('Edited a.txt: 1 replacement');
    expect(await readFile(other, 'utf8')).toBe('uno\ntwo\n');
    const again = { file_path: 'a.txt', old_string: 'two', new_string: 'dos' };
    expect((await run('asked', again)).value).toMatch(/hard links/);
    await toolkit.dispose();
  });

  it('reads through a hard link still work (pnpm stores hard-link node_modules files)', async () => {
    const { ws } = await linked();
    expect((await readTextFile(ws, { file_path: 'a.txt' })).text).toBe('one\ntwo');
  });

  it('a new file gets one link and is written', async () => {
    const { root, ws } = await setup();
    await mkdir(path.join(root, 'sub'));
    await writeTextFile(ws, { file_path: 'sub/new.txt', content: 'fresh' });
    expect(await readFile(path.join(root, 'sub/new.txt'), 'utf8')).toBe('fresh');
  });
});
