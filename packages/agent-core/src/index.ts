/**
 * `@codeagent/agent-core`: the codeagent agent loop on the Vercel AI SDK 6 — typed callbacks and
 * events, permission gate wiring, compaction and sessions (Backend Contract v1).
 *
 * @packageDocumentation
 */
export { CodeagentClient, createClient } from './client.js';
export {
  CLEARED_TOOL_RESULT,
  COMPACTION_ACTIONS,
  type CompactionAction,
  type CompactionDecision,
  type CompactionOptions,
  DEFAULT_SUMMARY_PROMPT,
  type DroppedItem,
  type PairProblem,
  validateToolPairs,
} from './compaction.js';
export { AgentCoreError, type AgentCoreErrorCode, classifyError, type ErrorClass } from './errors.js';
export {
  AGENT_EVENT_TYPES,
  type AgentEvent,
  type CompactionEvent,
  type DeltaEvent,
  type EndEvent,
  type ErrorEvent,
  type StreamCallbacks,
  type StreamOptions,
  type StreamResult,
  type ThinkingEvent,
  type TickEvent,
  type ToolOutputAgentEvent,
  type ToolOutputEvent,
  type ToolRequestAgentEvent,
  type ToolRequestEvent,
  type ToolResultAgentEvent,
  type ToolResultEvent,
  type UsageEvent,
} from './events.js';
export type { InputPart, StreamInput } from './input.js';
export type { CreateClientOptions } from './options.js';
export type { RetryOptions, SleepFunction } from './retry.js';
export type { Pricing } from './session-state.js';
export {
  type ParseSessionOptions,
  parseSession,
  SESSION_FORMAT,
  SESSION_VERSION,
  type SessionData,
  type ToolRecord,
} from './session.js';
export type { SkillsOptions, SlashExpansion } from './skill-wiring.js';
export { mapStopReason, STOP_REASONS, type StopFacts, type StopReason } from './stop-reason.js';
export { loadSession, stream, streamEvents } from './stream.js';
export {
  type AgentTool,
  defineTool,
  INTENT_ARGUMENT,
  PRESENTATION_META_KEY,
  presentationMeta,
  type ToolCapability,
  type ToolContext,
  withPresentationMeta,
} from './tool.js';
export { registerToolMeta } from './tool-meta.js';
export {
  TOOL_OUTPUT_INTERVAL_MS,
  TOOL_OUTPUT_MAX_CHUNK,
  type ToolOutputChunk,
  type ToolOutputStream,
} from './tool-output.js';
export type { DisplayFunction } from './tool-runner.js';
export {
  type TokenThresholds,
  tokenThresholds,
  type Usage,
  type WarningState,
  warningStateFor,
} from './usage.js';
