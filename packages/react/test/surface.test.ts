import { expect, it } from 'vitest';
import * as api from '../src/index.ts';

it('pins the public export names', () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      'ApprovalPrompt',
      'CodeBlock',
      'DataTable',
      'DiffView',
      'IMAGE_MIME_TYPES',
      'MAX_DIFF_LINES',
      'MAX_TERMINAL_CHARS',
      'Markdown',
      'RendererRegistryProvider',
      'TerminalOutput',
      'ToolCallCard',
      'ToolResultView',
      'TrustedHtmlView',
      'VIRTUALIZE_ROWS',
      'ValueView',
      'createRendererRegistry',
      'defaultRenderers',
      'diffHunks',
      'imageDataUrl',
      'isTooComplexForMarkdown',
      'parseSgr',
      'safeHref',
      'setHighlighter',
      'useRendererRegistry',
      'workerHighlighter',
    ].sort(),
  );
  expect(Object.keys(api.defaultRenderers)).toEqual(['text', 'table', 'image', 'code', 'diff', 'error']);
  expect(api.IMAGE_MIME_TYPES).toEqual(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
  expect(api.VIRTUALIZE_ROWS).toBe(200);
});
