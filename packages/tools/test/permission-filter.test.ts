import { readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { AgentTool, ToolContext } from '@codeagent/agent-core';
import type { ToolResult } from '@codeagent/artifact-schema';
import { createPermissionGate } from '@codeagent/permission-gate';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuiltinToolkit, createBuiltinToolkit } from '../src/index.js';
import { tempDir, writeTree } from './helpers.js';

const kits: BuiltinToolkit[] = [];
afterEach(async () => {
  while (kits.length > 0) await kits.pop()?.dispose();
});

const FILES = {
  '.env': 'API_KEY=sk-secret\n',
  'config/.env': 'DB_PASSWORD=hunter2\n',
  'src/app.ts': 'const API_KEY = process.env.API_KEY;\n',
};

async function kit(files: Record<string, string>, rules: { deny?: string[]; ask?: string[] }) {
  const cwd = await tempDir();
  await writeTree(cwd, files);
  const gate = createPermissionGate({ cwd, rules });
  const k = createBuiltinToolkit({
    cwd,
    readFilter: (p) => gate.readRestriction(p) === null,
    writeFilter: (p) => !gate.isProtectedPath(p),
  });
  kits.push(k);
  const byName = new Map(k.tools.map((t) => [t.name, t]));
  const run = async (name: string, args: Record<string, unknown>) => {
    const ctx: ToolContext = { callId: 'c1', name, signal: new AbortController().signal, cwd, intent: null };
    return (await (byName.get(name) as AgentTool).execute(args, ctx)) as ToolResult;
  };
  return { cwd, gate, run };
}

describe('read-path rules reach the walkers of Grep and Glob', () => {
  it('deny Read(**/.env): Grep over the workspace does not print .env (the reported bug)', async () => {
    const { run } = await kit(FILES, { deny: ['Read(**/.env)'] });
    const out = await run('Grep', { pattern: 'API_KEY|PASSWORD' });
    expect(out.value).not.toContain('sk-secret');
    expect(out.value).not.toContain('hunter2');
    expect(out.value).toContain('src/app.ts:1:const API_KEY');
    expect(out.value).toContain('[2 files hidden by permission rules]');
  });

  it('Glob does not list denied files', async () => {
    const { run } = await kit(FILES, { deny: ['Read(**/.env)'] });
    const out = await run('Glob', { pattern: '**/*' });
    expect(out.value.split('\n')[0]).toBe('src/app.ts');
    expect(out.value).not.toMatch(/^\.env$|config\/\.env/m);
    expect(out.value).toContain('[2 files hidden by permission rules]');
  });

  it('Grep on the file itself and Read through a symlink are refused', async () => {
    const { cwd, run } = await kit(FILES, { deny: ['Read(**/.env)'] });
    await symlink(path.join(cwd, '.env'), path.join(cwd, 'innocent.txt'));
    const grep = await run('Grep', { pattern: 'KEY', path: 'innocent.txt' });
    expect(grep.value).toMatch(/^Permission rules hide innocent\.txt from search$/);
    expect(grep.value).not.toContain('sk-secret');
    const read = await run('Read', { file_path: 'innocent.txt' });
    expect(read.value).toBe('Permission rules do not allow reading innocent.txt');
    // An allowed file still reads.
    expect((await run('Read', { file_path: 'src/app.ts' })).value).toContain('process.env.API_KEY');
  });

  it('ask rules hide files from searches too (a walk cannot ask per file)', async () => {
    const { run } = await kit(FILES, { ask: ['Read(config/**)'] });
    const out = await run('Grep', { pattern: 'PASSWORD' });
    expect(out.value).not.toContain('hunter2');
  });

  it('a filter that throws hides the file', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, FILES);
    const k = createBuiltinToolkit({
      cwd,
      readFilter: () => {
        throw new Error('boom');
      },
    });
    kits.push(k);
    const grep = k.tools.find((t) => t.name === 'Grep') as AgentTool;
    const ctx: ToolContext = {
      callId: 'c',
      name: 'Grep',
      signal: new AbortController().signal,
      cwd,
      intent: null,
    };
    const out = (await grep.execute({ pattern: 'KEY' }, ctx)) as ToolResult;
    expect(out.value).not.toContain('sk-secret');
  });
});

describe('writeFilter: a link cannot carry a write into protected configuration', () => {
  it('Write and Edit through a symlink to .codeagent/settings.json are refused', async () => {
    const { cwd, run } = await kit({ '.codeagent/settings.json': '{}\n', 'docs/a.md': 'a\n' }, {});
    await symlink(path.join(cwd, '.codeagent', 'settings.json'), path.join(cwd, 'docs', 'notes.json'));
    const w = await run('Write', { file_path: 'docs/notes.json', content: '{"rules":{"allow":["Bash"]}}' });
    expect(w.value).toMatch(/^docs\/notes\.json is a link to protected configuration/);
    const e = await run('Edit', {
      file_path: 'docs/notes.json',
      old_string: '{}',
      new_string: '{"mode":"bypass"}',
    });
    expect(e.value).toMatch(/is a link to protected configuration/);
    expect(await readFile(path.join(cwd, '.codeagent', 'settings.json'), 'utf8')).toBe('{}\n');
    // Ordinary writes are unaffected.
    await run('Write', { file_path: 'docs/a.md', content: 'b\n' });
    expect(await readFile(path.join(cwd, 'docs', 'a.md'), 'utf8')).toBe('b\n');
  });

  it('a directory link into .git is refused too', async () => {
    const { cwd, run } = await kit({ '.git/hooks/.keep': '' }, {});
    await symlink(path.join(cwd, '.git', 'hooks'), path.join(cwd, 'hooks'));
    const w = await run('Write', { file_path: 'hooks/pre-commit', content: '#!/bin/sh\ncurl x | sh\n' });
    expect(w.value).toMatch(/is a link to protected configuration/);
  });
});
