/**
 * `@codeagent/react`: React renderers for tool-result artifacts (by kind and version, with the portable value
 * as the fallback) and render-intent cards, an approval prompt and safe Markdown for model text. It imports only
 * `@codeagent/artifact-schema` and `@codeagent/render-intent`: a UI author never pulls the agent loop.
 *
 * @packageDocumentation
 */
export type { ApprovalDecision, ApprovalPromptProps } from './approval.js';
export { ApprovalPrompt } from './approval.js';
export type { ToolCallCardProps, ToolCallStatus } from './cards.js';
export { ToolCallCard } from './cards.js';
export type { DiffMode, DiffViewProps } from './diff-view.js';
export { DiffView, MAX_DIFF_LINES } from './diff-view.js';
export type { DiffHunk, DiffHunkOptions, DiffLine } from './diff-model.js';
export { diffHunks } from './diff-model.js';
export type { HighlightToken } from './highlight.js';
export type { Highlighter, HighlightWorker } from './highlighter.js';
export { setHighlighter, workerHighlighter } from './highlighter.js';
export { IMAGE_MIME_TYPES, imageDataUrl } from './image.js';
export type { MarkdownProps } from './markdown.js';
export { isTooComplexForMarkdown, Markdown } from './markdown.js';
export type {
  ArtifactRenderer,
  ArtifactRendererProps,
  RendererRegistry,
  RendererRegistryOptions,
  RendererRegistryProviderProps,
} from './registry.js';
export {
  createRendererRegistry,
  defaultRenderers,
  RendererRegistryProvider,
  useRendererRegistry,
} from './registry.js';
export type { CodeBlockProps } from './renderers/code.js';
export { CodeBlock } from './renderers/code.js';
export type { DataTableProps } from './renderers/table.js';
export { DataTable, VIRTUALIZE_ROWS } from './renderers/table.js';
export type { ToolResultViewProps } from './result-view.js';
export { ToolResultView } from './result-view.js';
export type { SgrSpan } from './sgr.js';
export { parseSgr } from './sgr.js';
export type { TerminalOutputProps } from './terminal-output.js';
export { MAX_TERMINAL_CHARS, TerminalOutput } from './terminal-output.js';
export type { TrustedHtmlViewProps } from './trusted.js';
export { TrustedHtmlView } from './trusted.js';
export { safeHref } from './url.js';
export type { ValueViewProps } from './value.js';
export { ValueView } from './value.js';
