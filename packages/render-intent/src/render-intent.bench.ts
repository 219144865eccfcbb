// render-intent bench, in the shared format (scripts/bench-lib.mjs): each function beside the plainest way to get the
// same output (jsdiff alone, a template literal, posix.relative, the presenters called directly).
import { posix } from 'node:path';
import { structuredPatch } from 'diff';
import { test } from 'vitest';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import {
  computeHunkDiffs,
  createBuiltinPresenters,
  createToolPresenter,
  displayPath,
  terminalFallbackText,
} from './index.js';

const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(i % 40)}`);
const before = `${lines.join('\n')}\n`;
const after = `${lines.map((l, i) => (i % 200 === 7 ? `${l} changed` : l)).join('\n')}\n`;

// What an Edit tool call does: one replacement somewhere in the file.
const oneEdit = before.replace('line 1234 ', 'line 1234 edited ');
// The case the pre-check exists for: every line rewritten (past maxEditLength: one whole-file diff).
const rewritten = `${lines.map((l) => `${l} new`).join('\n')}\n`;
const output = `${'build step ok `code` here\n'.repeat(4000)}`;
const edit = { file_path: 'src/a.ts', old_string: 'line 7', new_string: 'line seven' };
const editResult = { content: 'Edited', isError: false, meta: { before, after } } as const;
const cwdPresenters = createBuiltinPresenters({ cwd: '/work/project' });
const patch = (next: string) => () =>
  structuredPatch('f', 'f', before, next, '', '', { context: 3, maxEditLength: 1000 });

test('render-intent beside the plainest equivalents', async () => {
  const suite = benchSuite(
    '@codeagent/render-intent',
    'computeHunkDiffs, terminalFallbackText, displayPath and the presenter, each beside the plainest way to the same output',
  );
  await suite.compare({
    name: 'diff, 10 spread edits',
    what: 'computeHunkDiffs of a 2,000-line file with 10 edits spread over it',
    baselineName: 'jsdiff structuredPatch alone',
    ours: () => computeHunkDiffs('f', before, after),
    baseline: patch(after),
    goal: { max: 1.1 },
  });
  await suite.compare({
    name: 'diff, one edit',
    what: 'computeHunkDiffs of a 2,000-line file with one edit (an Edit call)',
    baselineName: 'jsdiff structuredPatch alone',
    ours: () => computeHunkDiffs('f', before, oneEdit),
    baseline: patch(oneEdit),
    goal: { max: 1.1 },
  });
  await suite.compare({
    name: 'diff, all rewritten',
    what: 'computeHunkDiffs of a 2,000-line file with every line rewritten (a 64-edit search, then one whole-file hunk)',
    baselineName: 'jsdiff structuredPatch bounded at 1,000 edits (gives up)',
    ours: () => computeHunkDiffs('f', before, rewritten),
    baseline: patch(rewritten),
    goal: { max: 1.1 },
  });
  await suite.compare({
    name: 'terminalFallbackText',
    what: 'terminalFallbackText of a 100 KB output (fenced so no backtick run closes it)',
    baselineName: 'a bare template literal fence',
    ours: () => terminalFallbackText(output),
    baseline: () => `\`\`\`console\n${output.replace(/\n+$/, '')}\n\`\`\``,
  });
  await suite.compare({
    name: 'displayPath',
    what: 'displayPath of a path under the working directory',
    baselineName: 'node:path posix.relative',
    ours: () => displayPath('/work/project/src/deep/nested/file.ts', '/work/project'),
    baseline: () => posix.relative('/work/project', '/work/project/src/deep/nested/file.ts'),
  });
  const presenter = createToolPresenter((name) => (name === 'Edit' ? cwdPresenters.Edit : undefined));
  await suite.compare({
    name: 'presenter, Edit',
    what: 'createToolPresenter call + result of an Edit on a 2,000-line file (guards, soft validation, containment)',
    baselineName: 'the Edit presenters called directly',
    ours: () => {
      presenter.call('c', 'Edit', edit);
      presenter.result('c', editResult);
    },
    baseline: () => {
      cwdPresenters.Edit.presentCall?.(edit);
      cwdPresenters.Edit.presentResult?.(edit, {
        content: [{ type: 'text', text: 'Edited' }],
        value: 'Edited',
        isError: false,
        meta: editResult.meta,
      });
    },
    goal: { max: 1.2 },
  });
  suite.finish();
});
