// The README quick start, verbatim, so it is type-checked and run.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

it('README quick start runs', async () => {
  const project = await mkdtemp(path.join(os.tmpdir(), 'readme-'));
  await writeFile(path.join(project, 'app.ts'), 'export const answer = 42; // TODO: explain\n');
  const logs: string[] = [];
  const console = { log: (...xs: unknown[]) => logs.push(xs.map(String).join(' ')) };

  // --- quick start (keep in sync with README.md) ---
  const { createBuiltinToolkit } = await import('@codeagent/tools');
  const { toolResultArtifact } = await import('@codeagent/artifact-schema');

  const toolkit = createBuiltinToolkit({ cwd: project });
  const grep = toolkit.tools.find((t) => t.name === 'Grep')!;
  const ctx = {
    callId: 'call_1',
    name: 'Grep',
    signal: AbortSignal.timeout(10_000),
    cwd: project,
    intent: null,
  };

  const result = (await grep.execute(
    { pattern: 'TODO', glob: '*.ts' },
    ctx,
  )) as import('@codeagent/artifact-schema').ToolResult;
  console.log(result.value); // app.ts:1:export const answer = 42; // TODO: explain
  console.log(toolResultArtifact(result)?.kind); // table

  const view = grep.presentCall?.({ pattern: 'TODO', glob: '*.ts' });
  console.log(view?.card, view?.title); // generic Grep /TODO/

  await toolkit.dispose(); // kills background jobs still running
  // --- end quick start ---

  expect(logs).toEqual([
    'app.ts:1:export const answer = 42; // TODO: explain',
    'table',
    'generic Grep /TODO/',
  ]);
  await rm(project, { recursive: true, force: true });
});

it('README agent-loop snippet type-checks', async () => {
  const { createClient } = await import('@codeagent/agent-core');
  const { builtinTools } = await import('@codeagent/tools');
  type Model = Parameters<typeof createClient>[0]['model'];
  // --- agent loop (keep in sync with README.md) ---
  const attach = (model: Model, cwd: string) =>
    createClient({ model, cwd, tools: builtinTools({ cwd, roots: [path.join(cwd, '../shared')] }) });
  // --- end agent loop ---
  expect(typeof attach).toBe('function');
});
