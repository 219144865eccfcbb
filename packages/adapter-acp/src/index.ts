/**
 * `@codeagent/adapter-acp`: serve codeagent sessions as an Agent Client Protocol agent over stdio, so that
 * editors (Zed, JetBrains, Neovim plugins, any ACP client) drive them.
 *
 * @packageDocumentation
 */
export {
  type AcpAgent,
  type AcpAgentOptions,
  type AcpHostCommand,
  type AcpSessionHandle,
  type AcpSessionInit,
  acpStopReason,
  createAcpAgent,
  usageUpdate,
} from './agent.js';
export {
  fenced,
  liveOutputNotice,
  type MappingContext,
  planEntries,
  textBlock,
  type ToolCallFields,
  type ToolCallNotice,
  type ToolCallUpdateNotice,
  toolCallFields,
  toolCallNotice,
  toolResultNotices,
} from './mapping.js';
export { type AcpMcpServerConfig, type AcpMcpServers, mcpServersFromAcp } from './mcp.js';
export { ACP_SESSION_MODES, sessionModeState, toPermissionMode } from './modes.js';
export { PromptContentError, promptToInput } from './prompt.js';
export { type AcpStdio, serveAcp } from './serve.js';
export { type AcpSessionEntry, type AcpSessionStore, createMemorySessionStore } from './store.js';
export { plainText, terminalText, visibleTitle } from './text.js';
