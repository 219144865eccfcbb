import { describe, expect, it } from 'vitest';
import { CARDS, TOOL_CALL_KINDS } from '../src/index.js';

describe('public surface pin', () => {
  it('exports exactly these runtime names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'CARDS',
      'RenderIntentError',
      'TOOL_CALL_KINDS',
      'assertNever',
      'builtinPresenters',
      'computeHunkDiffs',
      'createBuiltinPresenters',
      'createToolPresenter',
      'displayPath',
      'isAbsolutePath',
      'isContentBlock',
      'isFileDiff',
      'isToolCallView',
      'isToolResultView',
      'matchCallView',
      'matchResultView',
      'narrowBashResultMeta',
      'narrowFileChangeMeta',
      'resolvePath',
      'revealSegments',
      'revealText',
      'safeJson',
      'terminalFallbackText',
      'toContentBlocks',
    ]);
  });

  it('pins the protocol constants', () => {
    expect(CARDS).toEqual(['generic', 'terminal', 'diff']);
    expect(TOOL_CALL_KINDS).toEqual([
      'read',
      'edit',
      'delete',
      'move',
      'search',
      'execute',
      'fetch',
      'other',
    ]);
    expect(Object.isFrozen(CARDS) && Object.isFrozen(TOOL_CALL_KINDS)).toBe(true);
  });
});
