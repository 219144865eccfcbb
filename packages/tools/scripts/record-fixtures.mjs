// Records real tool call/result pairs as presenter fixtures (PresenterFixtureFile, version 1).
// Run after `pnpm build`: node scripts/record-fixtures.mjs  -> test/__fixtures__/recorded.json
import { mkdtemp, realpath, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { presentationMeta } from '@codeagent/agent-core';
import { createToolPresenter } from '@codeagent/render-intent';
import { createBuiltinToolkit } from '../dist/index.js';

// The session cwd is <tmp>/project; <tmp> becomes /workspace, so paths just outside the cwd map too.
const PLACEHOLDER = '/workspace';
const here = path.dirname(fileURLToPath(import.meta.url));
const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'record-')));
const cwd = path.join(base, 'project');
await mkdir(path.join(cwd, 'src'), { recursive: true });
await writeFile(
  path.join(cwd, 'src/app.ts'),
  'export const a = 1;\nexport const b = 2;\n\nexport function sum() {\n  return a + b;\n}\n',
);
await writeFile(path.join(cwd, '.gitignore'), 'dist/\n');

const toolkit = createBuiltinToolkit({ cwd, bash: { killGraceMs: 300 } });
const tools = new Map(toolkit.tools.map((t) => [t.name, t]));
const steps = [
  [
    'read-range',
    'Read: generic read card, title with the line range, location at offset',
    'Read',
    { file_path: 'src/app.ts', offset: 4, limit: 3 },
  ],
  [
    'read-outside',
    'Read: confinement error is a one-line error result (generic card)',
    'Read',
    { file_path: '../secret.txt' },
  ],
  [
    'write-create',
    'Write: a created file is a whole-file diff (oldText null)',
    'Write',
    { file_path: 'src/new.ts', content: 'export {};\n' },
  ],
  [
    'write-identical',
    'Write: an identical overwrite still shows the whole file',
    'Write',
    { file_path: 'src/new.ts', content: 'export {};\n' },
  ],
  [
    'edit-hunk',
    'Edit: applied hunk with 3 context lines',
    'Edit',
    { file_path: 'src/app.ts', old_string: 'a + b', new_string: 'a + b + 1' },
  ],
  [
    'edit-replace-all',
    'Edit: replace_all, hunks at each site',
    'Edit',
    { file_path: 'src/app.ts', old_string: 'export', new_string: 'export /* x */', replace_all: true },
  ],
  [
    'edit-ambiguous',
    'Edit: a non-unique old_string is an error (generic card)',
    'Edit',
    { file_path: 'src/app.ts', old_string: 'export', new_string: 'x' },
  ],
  ['glob', 'Glob: search card, result titled with the count', 'Glob', { pattern: 'src/**/*.ts' }],
  [
    'grep-content',
    'Grep: matching lines, result titled with the count',
    'Grep',
    { pattern: 'const', path: 'src' },
  ],
  [
    'bash-exit',
    'Bash: terminal card, raw output with escapes, exit code',
    'Bash',
    { command: "printf '\\033[33mwarn\\033[0m\\n'; exit 1", description: 'Warn and fail' },
  ],
  [
    'bash-timeout',
    'Bash: a timeout is a terminal result with the signal',
    'Bash',
    { command: 'echo started; sleep 10', timeout: 300 },
  ],
  [
    'todo',
    'TodoWrite -> generic: the counts and the exact input (the list itself is drawn once, by its table artifact)',
    'TodoWrite',
    {
      todos: [
        { content: 'Record fixtures', status: 'in_progress', activeForm: 'Recording fixtures' },
        { content: 'Ship', status: 'pending' },
      ],
    },
  ],
];

const swap = (x) => JSON.parse(JSON.stringify(x).split(base).join(PLACEHOLDER));
const cases = [];
for (const [id, source, name, args] of steps) {
  const tool = tools.get(name);
  const r = await tool.execute(args, {
    callId: id,
    name,
    signal: new AbortController().signal,
    cwd,
    intent: null,
  });
  const isError = r.error !== undefined && r.error !== null && r.error !== false;
  const meta = presentationMeta(r);
  const result = { content: r.value, isError, ...(meta === undefined ? {} : { meta }) };
  // The full resolution a host runs (fallbacks included), with the live tool's own presenters.
  const presenter = createToolPresenter((n) => {
    const t = tools.get(n);
    return t && { presentCall: t.presentCall, presentResult: t.presentResult };
  });
  const call = presenter.call(id, name, args);
  const view = presenter.result(id, result);
  cases.push(swap({ id, source, cwd, tool: name, args, result, expected: { call, result: view } }));
}
await toolkit.dispose();
await rm(base, { recursive: true, force: true });

const file = {
  $comment:
    'Recorded from real @codeagent/tools runs by scripts/record-fixtures.mjs; the temp cwd is replaced by a placeholder.',
  version: 1,
  cases,
};
await writeFile(path.join(here, '../test/__fixtures__/recorded.json'), `${JSON.stringify(file, null, 2)}\n`);
console.log(`recorded ${cases.length} cases`);
