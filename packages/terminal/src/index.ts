/**
 * ANSI terminal renderers for codeagent tool-result artifacts and render-intent cards, with safe
 * terminal text: every untrusted string is sanitised, colours never bleed, widths ignore escapes.
 * @packageDocumentation
 */

export {
  padEndToWidth,
  padStartToWidth,
  RESET,
  stripSgr,
  type TruncateOptions,
  truncateToWidth,
  visibleWidth,
} from './ansi.js';
export { type ApprovalRenderOptions, type ApprovalRendering, renderApproval } from './approval.js';
export {
  base64ByteLength,
  formatBytes,
  SUPPORTED_ARTIFACT_KINDS,
  type SupportedArtifactKind,
} from './artifact.js';
export { exitPill, type ToolResultData } from './cards.js';
export {
  enforceStrictOutput,
  findUnsafeTerminalBytes,
  isSafeTerminalOutput,
  type TerminalViolation,
} from './checker.js';
export { detectLanguage, type HighlightLanguage, type Token, type TokenType, tokenize } from './highlight.js';
export {
  type ColorEnv,
  type ResolvedRenderOptions,
  resolveColor,
  resolveRenderOptions,
  type TerminalRenderOptions,
} from './options.js';
export {
  createTerminalRenderer,
  renderArtifact,
  renderToolCall,
  renderToolCard,
  renderToolResult,
  type TerminalRenderer,
  type ToolCardData,
} from './render.js';
