// Approval previews of Write and Edit: read-only, from the file, the same result the tool applies.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { type AgentEvent, createClient, streamEvents, type ToolContext } from '@codeagent/agent-core';
import { installPermissionGate } from '@codeagent/permission-gate';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuiltinToolkit, createBuiltinToolkit, previewEdit } from '../src/index.js';
import { setup, tempDir, writeTree } from './helpers.js';

const kits: BuiltinToolkit[] = [];
afterEach(async () => {
  while (kits.length > 0) await kits.pop()?.dispose();
});

async function kit(files: Record<string, string>) {
  const cwd = await tempDir();
  await writeTree(cwd, files);
  const k = createBuiltinToolkit({ cwd });
  kits.push(k);
  const exec = async (name: string, args: unknown, callId: string) => {
    const tool = k.tools.find((t) => t.name === name);
    const ctx: ToolContext = { callId, name, signal: new AbortController().signal, cwd, intent: null };
    return (await tool?.execute(args, ctx)) as { value: string; status?: string };
  };
  return { cwd, k, exec };
}

const twenty = `${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

describe('toolkit.preview', () => {
  it('an Edit preview is the whole-file change the Edit makes (so real line numbers and context can be drawn)', async () => {
    const { k, exec, cwd } = await kit({ 'a.txt': twenty });
    const args = { file_path: 'a.txt', old_string: 'line 12\n', new_string: 'line twelve\n' };
    const p = await k.preview('Edit', args, 'c1');
    expect(p?.ok).toBe(true);
    if (!p?.ok) return;
    expect(p.view).toEqual({
      card: 'diff',
      title: 'Edit a.txt',
      diffs: [{ path: 'a.txt', oldText: twenty, newText: twenty.replace('line 12\n', 'line twelve\n') }],
      locations: [{ path: path.join(cwd, 'a.txt') }],
    });
    expect(p.change).toMatchObject({ change: 'updated', replacements: 1 });
    // Read-only: nothing changed yet.
    expect(await readFile(path.join(cwd, 'a.txt'), 'utf8')).toBe(twenty);
    const r = await exec('Edit', args, 'c1');
    expect(r.value).toBe('Edited a.txt: 1 replacement');
    expect(await readFile(path.join(cwd, 'a.txt'), 'utf8')).toBe(p.change.after);
  });

  it('an Edit whose old_string occurs twice fails in the preview with the tool error', async () => {
    const { k, exec } = await kit({ 'a.txt': 'x = 1\nx = 1\n' });
    const args = { file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' };
    const p = await k.preview('Edit', args);
    const r = await exec('Edit', args, 'c2');
    expect(p).toEqual({
      ok: false,
      code: 'edit-ambiguous',
      message:
        'old_string occurs 2 times in a.txt; add surrounding lines to make it unique, or set replace_all to change every occurrence',
    });
    expect(r.value).toBe(p?.ok === false ? p.message : '');
  });

  it('a Write preview diffs against the current file; a new file has no old text; other tools have none', async () => {
    const { k } = await kit({ 'old.txt': 'before\n' });
    const over = await k.preview('Write', { file_path: 'old.txt', content: 'after\n' });
    expect(over?.ok && over.view).toMatchObject({
      card: 'diff',
      diffs: [{ path: 'old.txt', oldText: 'before\n', newText: 'after\n' }],
    });
    const created = await k.preview('Write', { file_path: 'new/n.txt', content: 'n\n' });
    expect(created?.ok && created.change.change).toBe('created');
    expect(created?.ok && created.view).toMatchObject({ diffs: [{ oldText: null, newText: 'n\n' }] });
    expect(await k.preview('Bash', { command: 'ls' })).toBeUndefined();
    const outside = await k.preview('Write', { file_path: '../x.txt', content: 'x' });
    expect(outside).toMatchObject({ ok: false, code: 'outside-workspace' });
  });

  it('a file changed after its preview was shown is not written: what was approved is what runs', async () => {
    const { k, exec, cwd } = await kit({ 'a.txt': 'alpha\nbeta\n' });
    const args = { file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' };
    expect((await k.preview('Edit', args, 'c3'))?.ok).toBe(true);
    // Someone edits the file while the user reads the approval.
    await writeFile(path.join(cwd, 'a.txt'), 'alpha\nbeta\nrm -rf ~\n');
    const r = await exec('Edit', args, 'c3');
    expect(r.value).toBe(
      'a.txt changed after its change was shown for approval; nothing was written. Read it again and retry',
    );
    expect(await readFile(path.join(cwd, 'a.txt'), 'utf8')).toBe('alpha\nbeta\nrm -rf ~\n');
    // A Write is held to its preview the same way, also for a file that did not exist.
    expect((await k.preview('Write', { file_path: 'n.txt', content: 'mine' }, 'c4'))?.ok).toBe(true);
    await writeFile(path.join(cwd, 'n.txt'), 'theirs');
    expect((await exec('Write', { file_path: 'n.txt', content: 'mine' }, 'c4')).value).toMatch(
      /^n\.txt changed after its change was shown for approval/,
    );
    expect(await readFile(path.join(cwd, 'n.txt'), 'utf8')).toBe('theirs');
  });

  it('a file the read rules hide is not read for a preview or a precheck (nothing about it leaks before approval)', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { '.env': 'KEY=1\nKEY=1\n' });
    const k = createBuiltinToolkit({ cwd, readFilter: (p) => !p.endsWith('.env') });
    kits.push(k);
    const args = { file_path: '.env', old_string: 'KEY=1', new_string: 'KEY=2' };
    expect(await k.preview('Edit', args, 'x')).toBeUndefined();
    const edit = k.tools.find((t) => t.name === 'Edit');
    const ctx: ToolContext = {
      callId: 'x',
      name: 'Edit',
      signal: new AbortController().signal,
      cwd,
      intent: null,
    };
    // Without the filter this precheck would answer "occurs 2 times" without anyone being asked.
    expect(await edit?.precheck?.(args, ctx)).toBeUndefined();
  });

  it('property: the preview is exactly what the Edit writes, or fails with exactly the Edit error', async () => {
    const piece = fc.constantFrom('a', 'b', 'ab', '\n', '\r\n', ' ', '$&', 'x');
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    await fc.assert(
      fc.asyncProperty(text, text, text, fc.boolean(), async (content, oldString, newString, all) => {
        const { ws, root } = await setup({ 'f.txt': content });
        const args = { file_path: 'f.txt', old_string: oldString, new_string: newString, replace_all: all };
        const preview = await previewEdit(ws, args).then(
          (p) => ({ ok: true as const, after: p.after }),
          (e: Error) => ({ ok: false as const, message: e.message }),
        );
        const other = createBuiltinToolkit({ cwd: root });
        const tool = other.tools.find((t) => t.name === 'Edit');
        const ctx: ToolContext = {
          callId: 'p',
          name: 'Edit',
          signal: new AbortController().signal,
          cwd: root,
          intent: null,
        };
        const r = (await tool?.execute(args, ctx)) as { value: string; error?: string };
        if (preview.ok) {
          expect(r.error).toBeUndefined();
          expect(await readFile(path.join(root, 'f.txt'), 'utf8')).toBe(preview.after);
        } else {
          expect(r.value).toBe(preview.message);
          expect(await readFile(path.join(root, 'f.txt'), 'utf8')).toBe(content);
        }
      }),
      { numRuns: 60 },
    );
  });
});

type Part = LanguageModelV3StreamPart;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

describe('in the agent loop', () => {
  it('an Edit that would fail is never asked about; its error reaches the model as the tool would give it', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'a.txt': 'dup\ndup\n', 'b.txt': 'one\n' });
    const turns: Part[][] = [
      [
        {
          type: 'tool-call',
          toolCallId: 'e1',
          toolName: 'Edit',
          input: JSON.stringify({ file_path: 'a.txt', old_string: 'dup', new_string: 'x' }),
        },
        {
          type: 'tool-call',
          toolCallId: 'e2',
          toolName: 'Edit',
          input: JSON.stringify({ file_path: 'b.txt', old_string: 'one', new_string: 'two' }),
        },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool-calls' }, usage },
      ],
      [{ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }],
    ];
    let i = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [{ type: 'stream-start', warnings: [] }, ...(turns[i++] ?? [])],
          chunkDelayInMs: null,
        }),
      }),
    });
    const toolkit = createBuiltinToolkit({ cwd });
    kits.push(toolkit);
    const client = createClient({ model, cwd, tools: toolkit.tools });
    const asked: string[] = [];
    installPermissionGate(client, {
      mode: 'default',
      ask: async (name, input, id) => {
        asked.push(`${name}:${id}`);
        const p = await toolkit.preview(name, input, id);
        return p?.ok === true;
      },
    });
    const events: AgentEvent[] = [];
    for await (const e of streamEvents(client, 'go')) if (e.type === 'tool-result') events.push(e);
    expect(asked).toEqual(['Edit:e2']);
    const byId = new Map(events.map((e) => [e.type === 'tool-result' ? e.id : '', e]));
    expect(byId.get('e1')).toMatchObject({
      isError: true,
      value:
        'old_string occurs 2 times in a.txt; add surrounding lines to make it unique, or set replace_all to change every occurrence',
    });
    expect(byId.get('e2')).toMatchObject({ isError: false, value: 'Edited b.txt: 1 replacement' });
    expect(await readFile(path.join(cwd, 'b.txt'), 'utf8')).toBe('two\n');
  });
});
