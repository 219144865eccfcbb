import { toolResult } from '@codeagent/artifact-schema';
import type { ToolCallView, ToolResultView } from '@codeagent/render-intent';
import { describe, expectTypeOf, test } from 'vitest';
import {
  createTerminalRenderer,
  detectLanguage,
  type HighlightLanguage,
  type ApprovalRendering,
  renderApproval,
  renderArtifact,
  renderToolCall,
  renderToolCard,
  renderToolResult,
  type SupportedArtifactKind,
  type TerminalRenderOptions,
  type TerminalViolation,
  type ToolResultData,
} from '../src/index.js';

describe('render function types', () => {
  test('cards take the render-intent unions and return strings', () => {
    expectTypeOf(renderToolCall).parameter(0).toEqualTypeOf<ToolCallView>();
    expectTypeOf(renderToolResult).parameter(0).toEqualTypeOf<ToolResultView>();
    expectTypeOf(renderToolCall({ card: 'generic', title: 't' })).toEqualTypeOf<string>();
    // @ts-expect-error a result view is not a call view (a terminal call needs a title)
    renderToolCall({ card: 'terminal', output: 'x' });
    // @ts-expect-error the union is closed: no other card exists
    renderToolCall({ card: 'chart', title: 't' });
    // @ts-expect-error a diff result needs its diffs
    renderToolResult({ card: 'diff' });
  });
  test('a ToolResult and a tool-result event are both ToolResultData', () => {
    expectTypeOf(toolResult('v')).toExtend<ToolResultData>();
    expectTypeOf({ value: 'v', artifact: null, isError: false }).toExtend<ToolResultData>();
    renderToolCard({
      call: { card: 'terminal', title: 'ls' },
      result: { card: 'terminal', exitCode: 0 },
      value: '',
    });
  });
  test('renderArtifact accepts anything (untrusted input)', () => {
    expectTypeOf(renderArtifact).parameter(0).toEqualTypeOf<unknown>();
  });
});

describe('option and data types', () => {
  test('color is boolean or auto', () => {
    expectTypeOf<TerminalRenderOptions['color']>().toEqualTypeOf<boolean | 'auto' | undefined>();
    // @ts-expect-error 'always' is not a colour mode
    createTerminalRenderer({ color: 'always' });
  });
  test('closed unions', () => {
    expectTypeOf<SupportedArtifactKind>().toEqualTypeOf<
      'text' | 'table' | 'image' | 'code' | 'diff' | 'error'
    >();
    expectTypeOf(detectLanguage('ts')).toEqualTypeOf<HighlightLanguage | null>();
    expectTypeOf<TerminalViolation['rule']>().toEqualTypeOf<
      'non-sgr-escape' | 'c0-control' | 'c1-control' | 'bidi-control' | 'del'
    >();
  });

  test('renderApproval takes a call view and returns the text with its line counts', () => {
    expectTypeOf(renderApproval).parameter(0).toEqualTypeOf<ToolCallView>();
    expectTypeOf(renderApproval).returns.toEqualTypeOf<ApprovalRendering>();
    expectTypeOf<ApprovalRendering['hiddenLines']>().toEqualTypeOf<number>();
    // @ts-expect-error rawInput is 'always' or 'fallback'
    renderApproval({ card: 'terminal', title: 'ls' }, { rawInput: 'never' });
  });
});
