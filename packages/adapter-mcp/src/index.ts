/**
 * MCP servers' tools as codeagent agent tools: stdio and Streamable HTTP servers from the `.mcp.json` format users
 * already have, tools named `mcp__<server>__<tool>` and governed by the permission gate (every tool `exec` unless the
 * user trusts the server), results mapped to the three channels, crashes and hangs turned into error results and
 * restarts, prompts as slash commands.
 *
 * @packageDocumentation
 */
export {
  type McpConfig,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  mcpServerFingerprint,
  type ParseMcpConfigOptions,
  parseMcpConfig,
  readMcpConfigFile,
} from './config.js';
export {
  type McpConnectionOptions,
  type McpConnectionState,
  type McpProgress,
  type McpPromptInfo,
  McpServerConnection,
  type McpToolInfo,
} from './connection.js';
export type { McpElicitAnswer, McpElicitation, McpElicitField } from './elicit.js';
export { McpAdapterError, type McpAdapterErrorCode } from './errors.js';
export { MCP_TOOL_PREFIX, mcpToolName } from './names.js';
export {
  type McpAuthorizationRequest,
  McpFileOAuthStore,
  type McpOAuthConfig,
  type McpOAuthOptions,
  type McpOAuthRecord,
  type McpOAuthStore,
} from './oauth.js';
export { type McpSlashCommand, mcpSlashCommands } from './prompts.js';
export {
  type CollectedMcpServers,
  type CollectMcpServersOptions,
  collectMcpServers,
  findProjectMcpFile,
  type McpApproval,
  type McpApprovalDecision,
  McpApprovalStore,
  type McpServerScope,
  type McpServerSource,
  PROJECT_MCP_FILE,
} from './sources.js';
export {
  DEFAULT_MAX_VALUE_CHARS,
  type McpResultLimits,
  type McpResultSource,
  mcpResultToToolResult,
} from './result.js';
export {
  type AttachedMcpServers,
  attachMcpServers,
  type McpAttachTarget,
  MCP_POLICY_KEYS,
  type McpServerPolicy,
  type McpSourcePolicy,
  type McpToolOptions,
  mcpAgentTools,
  mcpSourcePolicy,
  mcpToolCapability,
} from './tools.js';
