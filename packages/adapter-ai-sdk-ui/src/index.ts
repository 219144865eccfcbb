/**
 * `@codeagent/adapter-ai-sdk-ui`: serve a codeagent agent to AI SDK UI (`useChat`) clients. Agent events become
 * the AI SDK 6 UI message stream; approvals end the response at the request and resume the turn on the next
 * request; the browser-side helpers live in `@codeagent/adapter-ai-sdk-ui/client`.
 *
 * @packageDocumentation
 */
export { type AgentUIMessage, applyChunk } from './accumulate.js';
export {
  type AgentUIChat,
  type AgentUIChatOptions,
  createAgentUIChat,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_PARK_SETTLE_MS,
  type ParkedTurnOptions,
  type PendingApproval,
  type RespondOptions,
} from './chat.js';
export {
  ALLOW_ALWAYS_REASON,
  codeagentToolMetadata,
  isToolPart,
  type ReadToolPartOptions,
  readMessageMetadata,
  readToolPart,
  type ToolPartInfo,
  type ToolPartStatus,
} from './client.js';
export {
  type AgentUIChunk,
  createEventMapper,
  type EventMapper,
  type EventMapperOptions,
  finishReasonFor,
  LIVE_OUTPUT_INTERVAL_MS,
  LIVE_OUTPUT_TAIL,
  usageMetadata,
} from './mapper.js';
export {
  type CodeagentMessageMetadata,
  type CodeagentToolMetadata,
  type CodeagentUsageMetadata,
  type DenialSource,
  TOOL_METADATA_KEY,
} from './metadata.js';
