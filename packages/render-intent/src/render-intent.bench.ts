import { posix } from 'node:path';
import { structuredPatch } from 'diff';
import { bench, describe } from 'vitest';
import {
  builtinPresenters,
  computeHunkDiffs,
  createBuiltinPresenters,
  createToolPresenter,
  displayPath,
  terminalFallbackText,
} from './index.js';

const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(i % 40)}`);
const before = `${lines.join('\n')}\n`;
const after = `${lines.map((l, i) => (i % 200 === 7 ? `${l} changed` : l)).join('\n')}\n`;

describe('computeHunkDiffs (2,000 lines, 10 edits spread over the file) vs jsdiff structuredPatch alone', () => {
  bench('baseline: structuredPatch', () => {
    structuredPatch('f', 'f', before, after, '', '', { context: 3, maxEditLength: 1000 });
  });
  bench('computeHunkDiffs', () => {
    computeHunkDiffs('f', before, after);
  });
});

// What an Edit tool call does: one replacement somewhere in the file.
const oneEdit = before.replace('line 1234 ', 'line 1234 edited ');
describe('computeHunkDiffs (2,000 lines, one edit: an Edit call) vs jsdiff structuredPatch alone', () => {
  bench('baseline: structuredPatch', () => {
    structuredPatch('f', 'f', before, oneEdit, '', '', { context: 3, maxEditLength: 1000 });
  });
  bench('computeHunkDiffs', () => {
    computeHunkDiffs('f', before, oneEdit);
  });
});

// The case the pre-check exists for: every line rewritten (past maxEditLength: one whole-file diff).
const rewritten = `${lines.map((l) => `${l} new`).join('\n')}\n`;
describe('computeHunkDiffs (2,000 lines, all rewritten) vs jsdiff structuredPatch bounded at 1,000 edits', () => {
  bench('baseline: structuredPatch (maxEditLength 1000, gives up)', () => {
    structuredPatch('f', 'f', before, rewritten, '', '', { context: 3, maxEditLength: 1000 });
  });
  bench('computeHunkDiffs (a 64-edit search, then the lower bound: whole-file diff)', () => {
    computeHunkDiffs('f', before, rewritten);
  });
});

const output = `${'build step ok `code` here\n'.repeat(4000)}`;
describe('terminalFallbackText (100 KB output) vs a bare template', () => {
  bench('baseline: template literal', () => {
    void `\`\`\`console\n${output.replace(/\n+$/, '')}\n\`\`\``;
  });
  bench('terminalFallbackText', () => {
    terminalFallbackText(output);
  });
});

describe('displayPath vs node:path posix.relative', () => {
  bench('baseline: posix.relative', () => {
    posix.relative('/work/project', '/work/project/src/deep/nested/file.ts');
  });
  bench('displayPath', () => {
    displayPath('/work/project/src/deep/nested/file.ts', '/work/project');
  });
});

const edit = { file_path: 'src/a.ts', old_string: 'line 7', new_string: 'line seven' };
const editResult = { content: 'Edited', isError: false, meta: { before, after } } as const;
const cwdPresenters = createBuiltinPresenters({ cwd: '/work/project' });
describe('createToolPresenter call+result (Edit, 2,000 lines) vs calling the presenters directly', () => {
  bench('baseline: presentCall + presentResult', () => {
    cwdPresenters.Edit.presentCall?.(edit);
    cwdPresenters.Edit.presentResult?.(edit, {
      content: [{ type: 'text', text: 'Edited' }],
      value: 'Edited',
      isError: false,
      meta: editResult.meta,
    });
  });
  const presenter = createToolPresenter((name) => (name === 'Edit' ? cwdPresenters.Edit : undefined));
  bench('createToolPresenter', () => {
    presenter.call('c', 'Edit', edit);
    presenter.result('c', editResult);
  });
  const light = createToolPresenter((name) => (name === 'Bash' ? builtinPresenters.Bash : undefined));
  bench('createToolPresenter (Bash, small result)', () => {
    light.call('c', 'Bash', { command: 'ls' });
    light.result('c', { content: 'a\nb\n', isError: false, meta: { output: 'a\nb\n', exitCode: 0 } });
  });
});
