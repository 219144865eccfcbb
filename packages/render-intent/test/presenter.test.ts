import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createToolPresenter,
  isToolCallView,
  isToolResultView,
  type PresenterIssue,
  type StandardSchemaV1,
  type ToolPresentation,
  type ToolResultView,
} from '../src/index.js';

/** A minimal synchronous Standard Schema: args must be an object with a string `path`. */
const pathSchema: StandardSchemaV1<unknown, { path: string; upper: string }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value) =>
      typeof value === 'object' && value !== null && typeof (value as { path?: unknown }).path === 'string'
        ? {
            value: {
              path: (value as { path: string }).path,
              upper: (value as { path: string }).path.toUpperCase(),
            },
          }
        : { issues: [{ message: 'path must be a string', path: ['path'] }] },
  },
};

const asyncSchema: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'test', validate: async (value) => ({ value }) },
};

function setup(tools: Record<string, ToolPresentation>) {
  const issues: PresenterIssue[] = [];
  const presenter = createToolPresenter((name) => tools[name], { onError: (i) => issues.push(i) });
  return { presenter, issues, codes: () => issues.map((i) => i.code) };
}

const ok = { content: [{ type: 'text' as const, text: 'raw out' }], isError: false };
const raw = [{ type: 'text', text: 'raw out' }];

describe('call resolution rules', () => {
  const cases: Array<{
    rule: string;
    tool: ToolPresentation | undefined;
    args: unknown;
    expected: unknown;
    codes: string[];
  }> = [
    {
      rule: 'unknown tool -> generic {title: name, kind: other, rawInput}',
      tool: undefined,
      args: { a: 1 },
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: { a: 1 } },
      codes: [],
    },
    {
      rule: 'tool without presentCall -> generic',
      tool: {},
      args: [1, 2],
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: [1, 2] },
      codes: [],
    },
    {
      rule: 'presentCall returns undefined -> generic',
      tool: { presentCall: () => undefined },
      args: 'x',
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: 'x' },
      codes: [],
    },
    {
      rule: 'presentCall throws -> contained, reported, generic',
      tool: {
        presentCall: () => {
          throw new Error('boom');
        },
      },
      args: null,
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: null },
      codes: ['present-call-threw'],
    },
    {
      rule: 'presentCall returns a malformed view (unknown card) -> reported, generic',
      tool: { presentCall: () => ({ card: 'table', title: 'x' }) as never },
      args: 1,
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: 1 },
      codes: ['invalid-view'],
    },
    {
      rule: 'presentCall returns a diff without diffs -> reported, generic',
      tool: { presentCall: () => ({ card: 'diff', title: 'x' }) as never },
      args: 1,
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: 1 },
      codes: ['invalid-view'],
    },
    {
      rule: 'args failing inputSchema -> generic (presenter never sees them)',
      tool: {
        inputSchema: pathSchema,
        presentCall: () => {
          throw new Error('must not run');
        },
      },
      args: { path: 42 },
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: { path: 42 } },
      codes: ['invalid-args'],
    },
    {
      rule: 'inputSchema that throws -> generic',
      tool: {
        inputSchema: {
          '~standard': {
            version: 1,
            vendor: 'x',
            validate: () => {
              throw new Error('schema bug');
            },
          },
        },
        presentCall: () => ({ card: 'terminal', title: 'no' }),
      },
      args: {},
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: {} },
      codes: ['schema-threw'],
    },
    {
      rule: 'async inputSchema cannot validate synchronously -> generic',
      tool: { inputSchema: asyncSchema, presentCall: () => ({ card: 'terminal', title: 'no' }) },
      args: {},
      expected: { card: 'generic', title: 'T', kind: 'other', rawInput: {} },
      codes: ['schema-async'],
    },
    {
      rule: 'valid args -> presenter gets the schema output value',
      tool: {
        inputSchema: pathSchema,
        presentCall: (args) => ({ card: 'generic', title: `Open ${args.upper}` }),
      } satisfies ToolPresentation<{ path: string; upper: string }> as ToolPresentation,
      args: { path: 'a.ts' },
      expected: { card: 'generic', title: 'Open A.TS' },
      codes: [],
    },
  ];

  it.each(cases.map((c) => [c.rule, c] as const))('%s', (_rule, c) => {
    const { presenter, codes } = setup(c.tool ? { T: c.tool } : {});
    expect(presenter.call('c1', 'T', c.args)).toEqual(c.expected);
    expect(codes()).toEqual(c.codes);
  });

  it('a throwing lookup is contained', () => {
    const issues: PresenterIssue[] = [];
    const presenter = createToolPresenter(
      () => {
        throw new Error('registry down');
      },
      { onError: (i) => issues.push(i) },
    );
    expect(presenter.call('c1', 'T', 1)).toEqual({ card: 'generic', title: 'T', kind: 'other', rawInput: 1 });
    expect(issues.map((i) => i.code)).toEqual(['lookup-threw']);
    expect(presenter.result('c1', ok)).toEqual({ card: 'generic', content: raw });
  });

  it('a throwing onError is ignored', () => {
    const presenter = createToolPresenter(() => ({ presentCall: () => ({ card: 'nope' }) as never }), {
      onError: () => {
        throw new Error('reporter bug');
      },
    });
    expect(presenter.call('c1', 'T', 1).card).toBe('generic');
  });

  it('tool names never imply a kind', () => {
    const { presenter } = setup({});
    for (const name of ['Read', 'Bash', 'Edit', 'WebFetch', 'Grep']) {
      expect(presenter.call(name, name, {})).toMatchObject({ card: 'generic', kind: 'other' });
    }
  });
});

describe('result resolution rules', () => {
  const terminalTool: ToolPresentation = {
    presentCall: () => ({ card: 'terminal', title: 'ls' }),
    presentResult: (_a, r) => ({ card: 'terminal', output: r.value, exitCode: 0 }),
  };
  type Case = {
    rule: string;
    tool: ToolPresentation | undefined;
    expected: ToolResultView;
    codes: string[];
    input?: Parameters<ReturnType<typeof createToolPresenter>['result']>[1];
  };
  const cases: Case[] = [
    {
      rule: 'no presentResult -> generic with raw content',
      tool: {},
      expected: { card: 'generic', content: raw } as ToolResultView,
      codes: [],
    },
    {
      rule: 'presentResult returns undefined -> generic with raw content',
      tool: { presentResult: () => undefined },
      expected: { card: 'generic', content: raw } as ToolResultView,
      codes: [],
    },
    {
      rule: 'presentResult throws -> contained, generic with raw content',
      tool: {
        presentResult: () => {
          throw new TypeError('bad meta');
        },
      },
      expected: { card: 'generic', content: raw } as ToolResultView,
      codes: ['present-result-threw'],
    },
    {
      rule: 'generic result without content is filled with the raw content (title kept)',
      tool: { presentResult: () => ({ card: 'generic', title: 'Done' }) },
      expected: { card: 'generic', title: 'Done', content: raw } as ToolResultView,
      codes: [],
    },
    {
      rule: 'generic result with explicit content keeps it',
      tool: { presentResult: () => ({ card: 'generic', content: [] }) },
      expected: { card: 'generic', content: [] },
      codes: [],
    },
    {
      rule: 'terminal result after a terminal call stays terminal',
      tool: terminalTool,
      expected: { card: 'terminal', output: 'raw out', exitCode: 0 },
      codes: [],
    },
    {
      rule: 'terminal result after a non-terminal call -> generic with fenced output (orphan guard)',
      tool: { presentResult: () => ({ card: 'terminal', title: 'T!', output: 'x\n' }) },
      expected: { card: 'generic', title: 'T!', content: [{ type: 'text', text: '```console\nx\n```' }] },
      codes: ['orphan-terminal-result'],
    },
    {
      rule: 'orphan terminal result without output -> generic with raw content',
      tool: { presentResult: () => ({ card: 'terminal', exitCode: 1 }) },
      expected: { card: 'generic', content: raw } as ToolResultView,
      codes: ['orphan-terminal-result'],
    },
    {
      rule: 'diff result is passed through',
      tool: { presentResult: () => ({ card: 'diff', diffs: [{ path: 'a', oldText: null, newText: 'b' }] }) },
      expected: { card: 'diff', diffs: [{ path: 'a', oldText: null, newText: 'b' }] },
      codes: [],
    },
    {
      rule: 'malformed result view -> reported, generic',
      tool: { presentResult: () => ({ card: 'terminal', exitCode: 1.5 }) as never },
      expected: { card: 'generic', content: raw } as ToolResultView,
      codes: ['invalid-view'],
    },
    {
      rule: 'string content becomes one text block',
      tool: {},
      input: { content: 'plain', isError: true },
      expected: { card: 'generic', content: [{ type: 'text', text: 'plain' }] },
      codes: [],
    },
  ];

  it.each(cases.map((c) => [c.rule, c] as const))('%s', (_rule, c) => {
    const { presenter, codes } = setup(c.tool ? { T: c.tool } : {});
    presenter.call('c1', 'T', { any: 'args' });
    expect(presenter.result('c1', c.input ?? ok)).toEqual(c.expected);
    expect(codes()).toEqual(c.codes);
  });

  it('presentResult gets validated args, content, joined value, isError and meta', () => {
    let seen: unknown;
    const { presenter } = setup({
      T: {
        inputSchema: pathSchema,
        presentResult: (args, r) => {
          seen = { args, r };
          return undefined;
        },
      } as ToolPresentation,
    });
    presenter.call('c1', 'T', { path: 'p' });
    const content = [
      { type: 'text' as const, text: 'a' },
      { type: 'image' as const, mime: 'image/png', b64: 'AA==' },
      { type: 'text' as const, text: 'b' },
    ];
    presenter.result('c1', { content, isError: true, meta: { n: 1 } });
    expect(seen).toEqual({
      args: { path: 'p', upper: 'P' },
      r: { content, value: 'a\nb', isError: true, meta: { n: 1 } },
    });
  });

  it('args that failed the schema never reach presentResult', () => {
    const { presenter, codes } = setup({
      T: {
        inputSchema: pathSchema,
        presentResult: () => {
          throw new Error('must not run');
        },
      } as ToolPresentation,
    });
    presenter.call('c1', 'T', {});
    expect(presenter.result('c1', ok)).toEqual({ card: 'generic', content: raw });
    expect(codes()).toEqual(['invalid-args']);
  });

  it('a result with no remembered call -> generic with the raw content', () => {
    const { presenter, codes } = setup({ T: terminalTool });
    expect(presenter.result('never-called', ok)).toEqual({ card: 'generic', content: raw });
    expect(codes()).toEqual(['unknown-call']);
  });

  it('pairs by call id and forgets a call once its result came', () => {
    const { presenter, codes } = setup({
      T: terminalTool,
      G: { presentResult: (args) => ({ card: 'generic', title: String(args) }) },
    });
    presenter.call('a', 'T', 'argsA');
    presenter.call('b', 'G', 'argsB');
    expect(presenter.pending).toBe(2);
    expect(presenter.result('b', ok)).toEqual({ card: 'generic', title: 'argsB', content: raw });
    expect(presenter.result('a', ok)).toEqual({ card: 'terminal', output: 'raw out', exitCode: 0 });
    expect(presenter.pending).toBe(0);
    expect(presenter.result('a', ok)).toEqual({ card: 'generic', content: raw });
    expect(codes()).toEqual(['unknown-call']);
  });

  it('malformed result input from a restored session does not crash', () => {
    const { presenter } = setup({ T: {} });
    presenter.call('c1', 'T', 1);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const view = presenter.result('c1', {
      content: [cyclic, 5, 'x', { type: 'image' }] as never,
      isError: 'yes' as never,
    });
    expect(view.card).toBe('generic');
    expect(view).toEqual({
      card: 'generic',
      content: [
        { type: 'text', text: '{"self":"[Circular]"}' },
        { type: 'text', text: '5' },
        { type: 'text', text: 'x' },
        { type: 'text', text: '{"type":"image"}' },
      ],
    });
    presenter.call('c2', 'T', 1);
    expect(presenter.result('c2', undefined as never)).toEqual({ card: 'generic', content: [] });
  });
});

describe('hostile inputs never escape the presenter', () => {
  it('a missing result input or throwing getters on it', () => {
    const { presenter } = setup({
      T: { presentResult: (_a, r) => ({ card: 'generic', title: String(r.isError) }) },
    });
    presenter.call('c1', 'T', 1);
    expect(presenter.result('c1', undefined as never)).toEqual({
      card: 'generic',
      title: 'false',
      content: [],
    });
    presenter.call('c2', 'T', 1);
    const hostile = new Proxy({} as never, {
      get() {
        throw new Error('trap');
      },
    });
    expect(presenter.result('c2', hostile)).toEqual({ card: 'generic', title: 'false', content: [] });
  });

  it('a lookup entry whose getters throw', () => {
    const entry = Object.defineProperty({}, 'presentCall', {
      get() {
        throw new Error('trap');
      },
    }) as ToolPresentation;
    const { presenter, codes } = setup({ T: entry });
    expect(presenter.call('c1', 'T', 1)).toEqual({ card: 'generic', title: 'T', kind: 'other', rawInput: 1 });
    expect(presenter.result('c1', ok)).toEqual({ card: 'generic', content: raw });
    expect(codes()).toEqual(['present-call-threw']);
  });

  it('optional fields set to undefined by a JavaScript presenter are tolerated', () => {
    const { presenter, codes } = setup({
      T: {
        presentCall: () => ({ card: 'generic', title: 'x', kind: undefined, locations: undefined }) as never,
        presentResult: () => ({ card: 'generic', title: undefined, content: undefined }) as never,
      },
    });
    expect(presenter.call('c1', 'T', 1)).toEqual({ card: 'generic', title: 'x' });
    expect(presenter.result('c1', ok)).toEqual({ card: 'generic', content: raw });
    expect(codes()).toEqual([]);
  });
});

describe('property: the presenter never throws and always returns a well-formed view', () => {
  it('for arbitrary presenters outputs, args and results', () => {
    const anyOut = fc.oneof(
      fc.constant(undefined),
      fc.anything(),
      fc.record({ card: fc.constantFrom('generic', 'terminal', 'diff', 'table'), title: fc.string() }),
      fc.record({ card: fc.constant('terminal' as const), output: fc.string(), exitCode: fc.integer() }),
    );
    fc.assert(
      fc.property(
        anyOut,
        anyOut,
        fc.boolean(),
        fc.anything(),
        fc.anything(),
        (callOut, resultOut, throws, args, content) => {
          const tool: ToolPresentation = {
            presentCall: () => {
              if (throws) throw new Error('x');
              return callOut as never;
            },
            presentResult: () => resultOut as never,
          };
          const presenter = createToolPresenter(() => tool);
          expect(isToolCallView(presenter.call('id', 'T', args))).toBe(true);
          expect(
            isToolResultView(presenter.result('id', { content: content as never, isError: false })),
          ).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
