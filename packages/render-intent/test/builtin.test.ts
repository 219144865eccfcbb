import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  builtinPresenters,
  createBuiltinPresenters,
  createToolPresenter,
  isToolCallView,
  isToolResultView,
  narrowBashResultMeta,
  narrowFileChangeMeta,
  type PresentResultInput,
} from '../src/index.js';

const cwd = '/w';
const p = createBuiltinPresenters({ cwd });
const res = (over: Partial<PresentResultInput> = {}): PresentResultInput => ({
  content: [{ type: 'text', text: 'out' }],
  value: 'out',
  isError: false,
  ...over,
});

describe('built-in presenters narrow untrusted args defensively', () => {
  it.each([
    ['Read', null],
    ['Read', { file_path: 42 }],
    ['Write', { file_path: 'a' }],
    ['Write', { content: 'x' }],
    ['Edit', { file_path: 'a', new_string: 'x' }],
    ['Bash', { description: 'no command' }],
    ['Bash', 'ls'],
    ['TodoWrite', { todos: 'nope' }],
  ] as const)('%s(%j) asks for the generic card', (name, args) => {
    expect(p[name].presentCall?.(args)).toBeUndefined();
  });

  it('Read ignores invalid offset/limit (zero, negative, fractional, strings)', () => {
    for (const bad of [0, -1, 1.5, '3', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(p.Read.presentCall?.({ file_path: 'a', offset: bad, limit: bad })).toEqual({
        card: 'generic',
        title: 'Read a',
        kind: 'read',
        locations: [{ path: '/w/a', line: 1 }],
      });
    }
  });

  it('Edit without new_string draws an empty new side', () => {
    expect(p.Edit.presentCall?.({ file_path: 'a', old_string: 'x' })).toMatchObject({
      diffs: [{ path: '/w/a', oldText: 'x', newText: '' }],
    });
  });

  it('without a cwd, paths are shown and sent as given and terminal cards carry no cwd', () => {
    expect(builtinPresenters.Read.presentCall?.({ file_path: 'src/a.ts' })).toEqual({
      card: 'generic',
      title: 'Read src/a.ts',
      kind: 'read',
      locations: [{ path: 'src/a.ts', line: 1 }],
    });
    expect(builtinPresenters.Bash.presentCall?.({ command: 'ls' })).toEqual({
      card: 'terminal',
      title: 'ls',
    });
  });

  it('titles keep hostile text raw (renderers escape/sanitise once, at render time)', () => {
    const command = '<img src=x onerror=alert(1)>\u001b]0;pwn\u0007\u202eevil';
    expect(p.Bash.presentCall?.({ command })).toMatchObject({ card: 'terminal', title: command });
  });

  it('TodoWrite draws the plan once: the call says the counts and carries the exact input, never the list', () => {
    const todos = [null, 5, { status: 'completed' }, { content: 'b', status: 'in_progress' }];
    expect(p.TodoWrite.presentCall?.({ todos })).toEqual({
      card: 'generic',
      title: 'Update todos',
      kind: 'other',
      content: [{ type: 'text', text: '2 items: 1 completed, 1 in progress, 0 pending' }],
      rawInput: { todos },
    });
    expect(p.TodoWrite.presentCall?.({ todos: [{ content: 'x', status: 'pending' }] })).toMatchObject({
      content: [{ type: 'text', text: '1 item: 0 completed, 0 in progress, 1 pending' }],
    });
    expect(p.TodoWrite.presentCall?.({ todos: [] })).toMatchObject({
      content: [{ type: 'text', text: 'Clears the list' }],
    });
    expect(p.TodoWrite.presentCall?.({ todos: 'x' })).toBeUndefined();
    // The result is the model-facing text (its table artifact is what UIs draw).
    expect(p.TodoWrite.presentResult).toBeUndefined();
  });
});

describe('built-in result presenters narrow persisted meta defensively', () => {
  it.each([
    ['no meta', undefined],
    ['meta is a string', 'before'],
    ['after missing', { before: 'a' }],
    ['before is a number', { before: 1, after: 'b' }],
    ['array', ['a', 'b']],
  ])('Write/Edit with %s -> generic (filled with the raw content)', (_name, meta) => {
    expect(p.Write.presentResult?.({ file_path: 'a', content: 'b' }, res({ meta }))).toBeUndefined();
    expect(
      p.Edit.presentResult?.({ file_path: 'a', old_string: 'a', new_string: 'b' }, res({ meta })),
    ).toBeUndefined();
  });

  it('an overwrite that changed nothing still shows the whole file (no hunks, never a blank card)', () => {
    for (const tool of [p.Write, p.Edit]) {
      const view = tool.presentResult?.(
        { file_path: 'a', content: 'x\n', old_string: 'x', new_string: 'x' },
        res({ meta: { before: 'x\n', after: 'x\n' } }),
      );
      expect(view).toEqual({
        card: 'diff',
        diffs: [{ path: expect.stringMatching(/a$/), oldText: 'x\n', newText: 'x\n' }],
      });
    }
  });

  it('narrowFileChangeMeta / narrowBashResultMeta', () => {
    expect(narrowFileChangeMeta({ before: null, after: 'x', extra: 1 })).toEqual({
      before: null,
      after: 'x',
    });
    expect(narrowFileChangeMeta(null)).toBeUndefined();
    expect(narrowBashResultMeta({ output: 'o', exitCode: null, signal: null })).toEqual({ output: 'o' });
    expect(narrowBashResultMeta({ output: 1, exitCode: 1.5, signal: '' })).toEqual({});
    expect(narrowBashResultMeta({ exitCode: 0, signal: 'SIGINT' })).toEqual({
      exitCode: 0,
      signal: 'SIGINT',
    });
    expect(narrowBashResultMeta('x')).toEqual({});
  });

  it('Bash: output falls back to the model-facing text; no exit info and no error -> terminal without code', () => {
    expect(p.Bash.presentResult?.({ command: 'ls' }, res())).toEqual({ card: 'terminal', output: 'out' });
    expect(p.Bash.presentResult?.({ command: 'ls' }, res({ meta: { exitCode: 0 } }))).toEqual({
      card: 'terminal',
      output: 'out',
      exitCode: 0,
    });
  });
});

describe('property: built-in presenters never break the presenter', () => {
  it('for arbitrary args, content and meta every tool yields well-formed views', () => {
    const names = ['Read', 'Write', 'Edit', 'Bash', 'TodoWrite'] as const;
    const argLike = fc.oneof(
      fc.anything(),
      fc.record(
        {
          file_path: fc.oneof(fc.string(), fc.integer()),
          content: fc.string(),
          old_string: fc.string(),
          new_string: fc.string(),
          command: fc.string(),
          offset: fc.oneof(fc.integer(), fc.double()),
          limit: fc.integer(),
          run_in_background: fc.boolean(),
          todos: fc.array(fc.record({ content: fc.string(), status: fc.string() })),
        },
        { requiredKeys: [] },
      ),
    );
    const metaLike = fc.oneof(
      fc.anything(),
      fc.record({ before: fc.option(fc.string(), { nil: null }), after: fc.string() }),
      fc.record({
        output: fc.string(),
        exitCode: fc.option(fc.integer(), { nil: null }),
        signal: fc.string(),
      }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        argLike,
        metaLike,
        fc.boolean(),
        fc.string(),
        (name, args, meta, isError, text) => {
          const presenter = createToolPresenter((n) => p[n as (typeof names)[number]]);
          expect(isToolCallView(presenter.call('1', name, args))).toBe(true);
          expect(isToolResultView(presenter.result('1', { content: text, isError, meta }))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
