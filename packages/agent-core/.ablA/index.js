/**
 * `@codeagent/agent-core`: the codeagent agent loop on the Vercel AI SDK 6 — typed callbacks and
 * events, permission gate wiring, compaction and sessions (Backend Contract v1).
 *
 * @packageDocumentation
 */
export { CodeagentClient, createClient } from './client.js';
export { CLEARED_TOOL_RESULT, COMPACTION_ACTIONS, DEFAULT_SUMMARY_PROMPT, validateToolPairs, } from './compaction.js';
export { AgentCoreError, classifyError } from './errors.js';
export { AGENT_EVENT_TYPES, } from './events.js';
export { parseSession, SESSION_FORMAT, SESSION_VERSION, } from './session.js';
export { STOP_REASONS } from './stop-reason.js';
export { loadSession, stream, streamEvents } from './stream.js';
export { defineTool, INTENT_ARGUMENT, PRESENTATION_META_KEY, presentationMeta, withPresentationMeta, } from './tool.js';
export { registerToolMeta } from './tool-meta.js';
export { TOOL_OUTPUT_INTERVAL_MS, TOOL_OUTPUT_MAX_CHUNK, } from './tool-output.js';
export { tokenThresholds, warningStateFor, } from './usage.js';
//# sourceMappingURL=index.js.map