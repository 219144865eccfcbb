/**
 * `@codeagent/render-intent`: the closed render-intent union that tells any UI how to draw a tool
 * call and its result, the resolution rules that turn tools' pure presenters into views, and the
 * helpers bridges share (terminal fallback, hunk diffs, display paths).
 *
 * @packageDocumentation
 */
export type {
  BashArgs,
  BashResultMeta,
  BuiltinPresenterOptions,
  BuiltinPresenters,
  BuiltinToolName,
  EditArgs,
  FileChangeMeta,
  PresentedToolName,
  ReadArgs,
  TodoItem,
  TodoWriteArgs,
  WriteArgs,
} from './builtin.js';
export {
  builtinPresenters,
  createBuiltinPresenters,
  narrowBashResultMeta,
  narrowFileChangeMeta,
} from './builtin.js';
export type { HunkDiffOptions } from './diff.js';
export { computeHunkDiffs } from './diff.js';
export type { RenderIntentErrorCode } from './errors.js';
export { assertNever, RenderIntentError, safeJson } from './errors.js';
export type { CallViewHandlers, ResultViewHandlers } from './match.js';
export {
  isContentBlock,
  isFileDiff,
  isToolCallView,
  isToolResultView,
  matchCallView,
  matchResultView,
} from './match.js';
export { displayPath, isAbsolutePath, resolvePath } from './path.js';
export type {
  PresenterIssue,
  PresenterIssueCode,
  PresentResultInput,
  ToolPresentation,
  ToolPresentationLookup,
  ToolPresenter,
  ToolPresenterOptions,
  ToolResultInput,
} from './presenter.js';
export { createToolPresenter, toContentBlocks } from './presenter.js';
export type { RevealKind, RevealOptions, RevealSegment } from './reveal.js';
export { revealSegments, revealText } from './reveal.js';
export type {
  StandardSchemaV1,
  StandardSchemaV1Failure,
  StandardSchemaV1Issue,
  StandardSchemaV1PathSegment,
  StandardSchemaV1Props,
  StandardSchemaV1Result,
  StandardSchemaV1Success,
  StandardSchemaV1Types,
} from './standard-schema.js';
export { terminalFallbackText } from './terminal.js';
export type {
  Card,
  ContentBlock,
  DiffCallView,
  DiffResultView,
  FileDiff,
  FileLocation,
  GenericCallView,
  GenericResultView,
  ImageContentBlock,
  TerminalCallView,
  TerminalResultView,
  TextContentBlock,
  ToolCallKind,
  ToolCallView,
  ToolResultView,
} from './types.js';
export { CARDS, TOOL_CALL_KINDS } from './types.js';
export type { PresenterFixture, PresenterFixtureFile } from './fixtures.js';
