import { describe, expectTypeOf, it } from 'vitest';
import {
  assertNever,
  type BuiltinPresenters,
  type BuiltinToolName,
  type Card,
  type ContentBlock,
  type DiffCallView,
  type FileDiff,
  matchCallView,
  matchResultView,
  type PresentedToolName,
  type StandardSchemaV1,
  type TerminalResultView,
  type ToolCallKind,
  type ToolCallView,
  type ToolPresentation,
  type ToolResultView,
} from '../src/index.js';

describe('the card unions', () => {
  it('every variant requires card', () => {
    expectTypeOf<ToolCallView['card']>().toEqualTypeOf<'generic' | 'terminal' | 'diff'>();
    expectTypeOf<ToolResultView['card']>().toEqualTypeOf<Card>();
    // @ts-expect-error a call view without card is not a view
    const noCard: ToolCallView = { title: 'x' };
    // @ts-expect-error a terminal call without card is not a view
    const noCard2: ToolCallView = { title: 'ls', cwd: '/' };
    // @ts-expect-error a result view without card is not a view
    const noCard3: ToolResultView = { output: 'x' };
    // @ts-expect-error a diff result without card is not a view
    const noCard4: ToolResultView = { diffs: [] };
    void [noCard, noCard2, noCard3, noCard4];
  });

  it('invalid card/field combinations do not type-check', () => {
    // @ts-expect-error a generic card cannot carry terminal output
    const a: ToolCallView = { card: 'generic', title: 'x', output: 'y' };
    // @ts-expect-error a terminal call cannot carry diffs
    const b: ToolCallView = { card: 'terminal', title: 'ls', diffs: [] };
    // @ts-expect-error a diff call needs diffs
    const c: ToolCallView = { card: 'diff', title: 'd' };
    // @ts-expect-error a terminal call has no rawInput/content
    const d: ToolCallView = { card: 'terminal', title: 'ls', content: [] };
    // @ts-expect-error a generic result cannot carry an exit code
    const e: ToolResultView = { card: 'generic', exitCode: 1 };
    // @ts-expect-error a terminal result cannot carry diffs
    const f: ToolResultView = { card: 'terminal', diffs: [] };
    // @ts-expect-error a call title is required
    const g: ToolCallView = { card: 'generic' };
    // @ts-expect-error an unknown card is not part of the union
    const h: ToolCallView = { card: 'table', title: 't' };
    // @ts-expect-error kind is a closed union; tool names are not kinds
    const i: ToolCallView = { card: 'generic', title: 't', kind: 'bash' };
    // @ts-expect-error exitCode is a number, not a string
    const j: TerminalResultView = { card: 'terminal', exitCode: '0' };
    // @ts-expect-error newText cannot be null; only oldText can
    const k: FileDiff = { path: 'p', oldText: 'a', newText: null };
    // @ts-expect-error exactOptionalPropertyTypes: an optional field cannot be set to undefined
    const l: ToolCallView = { card: 'terminal', title: 'ls', cwd: undefined };
    // @ts-expect-error content blocks are text or image only
    const m: ContentBlock = { type: 'diff', path: 'p' };
    void [a, b, c, d, e, f, g, h, i, j, k, l, m];
    expectTypeOf<ToolCallKind>().toEqualTypeOf<
      'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'fetch' | 'other'
    >();
  });

  it('switching on card narrows each variant', () => {
    const view = {} as ToolCallView;
    if (view.card === 'diff') expectTypeOf(view).toEqualTypeOf<DiffCallView>();
    if (view.card === 'terminal')
      expectTypeOf(view).toHaveProperty('cwd').toEqualTypeOf<string | undefined>();
  });
});

describe('closedness: a fourth card breaks every matcher that ends in assertNever', () => {
  type TableCallView = { card: 'table'; title: string; rows: unknown[][] };
  type ExtendedCallView = ToolCallView | TableCallView;

  it('a switch over the three cards no longer compiles once a fourth exists', () => {
    function bridge(view: ExtendedCallView): string {
      switch (view.card) {
        case 'generic':
          return view.title;
        case 'terminal':
          return view.title;
        case 'diff':
          return view.title;
        default:
          // @ts-expect-error 'table' is not handled, so `view` is not `never` here
          return assertNever(view, 'bridge');
      }
    }
    void bridge;
  });

  it('the same switch over the closed union compiles', () => {
    function bridge(view: ToolCallView): string {
      switch (view.card) {
        case 'generic':
        case 'terminal':
        case 'diff':
          return view.title;
        default:
          return assertNever(view, 'bridge');
      }
    }
    expectTypeOf(bridge).returns.toEqualTypeOf<string>();
  });

  it('matchers require one handler per card and infer the result type', () => {
    const view = {} as ToolCallView;
    expectTypeOf(
      matchCallView(view, { generic: () => 1, terminal: () => 2, diff: () => 3 }),
    ).toEqualTypeOf<number>();
    // @ts-expect-error the diff handler is missing
    matchCallView(view, { generic: () => 1, terminal: () => 2 });
    const result = {} as ToolResultView;
    // @ts-expect-error a handler for an unknown card is rejected
    matchResultView(result, { generic: () => 1, terminal: () => 2, diff: () => 3, table: () => 4 });
    // @ts-expect-error a matcher cannot be handed a view from an extended union
    matchCallView({} as ExtendedCallView, { generic: () => 1, terminal: () => 2, diff: () => 3 });
  });
});

describe('presentations', () => {
  it('a schema types the args its presenters receive', () => {
    const schema = {} as StandardSchemaV1<unknown, { command: string }>;
    const tool: ToolPresentation<{ command: string }> = {
      inputSchema: schema,
      presentCall: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ command: string }>();
        return { card: 'terminal', title: args.command };
      },
    };
    // A typed presentation is usable where the lookup expects any presentation.
    const lookup = (_name: string): ToolPresentation | undefined => tool;
    void lookup;
  });

  it('presenters must return views (or undefined)', () => {
    const bad: ToolPresentation = {
      // @ts-expect-error a string is not a view
      presentCall: () => 'not a view',
    };
    void bad;
  });
});

describe('built-in presenter names', () => {
  it('PresentedToolName lists the five presented tools; BuiltinToolName is its deprecated alias', () => {
    expectTypeOf<PresentedToolName>().toEqualTypeOf<'Read' | 'Write' | 'Edit' | 'Bash' | 'TodoWrite'>();
    expectTypeOf<BuiltinToolName>().toEqualTypeOf<PresentedToolName>();
    expectTypeOf<keyof BuiltinPresenters>().toEqualTypeOf<PresentedToolName>();
  });
});
