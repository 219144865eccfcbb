export {
  checkId,
  checkMeta,
  checkTitle,
  DEFAULT_MAX_RECORD_BYTES,
  decodeRecord,
  isSessionId,
  MAX_META_ENTRIES,
  MAX_META_VALUE_CHARS,
  MAX_TITLE_CHARS,
} from './codec.js';
export {
  type ConflictDetails,
  isSessionStoreError,
  SESSION_STORE_ERROR_CODES,
  SessionStoreError,
  type SessionStoreErrorCode,
} from './errors.js';
export {
  createJsonFileStore,
  decodeSessionFile,
  JSON_STORE_SCHEMA,
  type JsonFileStoreOptions,
  SESSION_FILE_FORMAT,
} from './json-files.js';
export { type AgentStep, appendTurnSteps, createStepRecorder, type StepRecorder } from './steps.js';
export { isOwnerAlive, processOwner, staleRunningTurn } from './turns.js';
export {
  type AppendEventsInput,
  type AppendStepInput,
  type ApprovalAnswer,
  type BeginTurnInput,
  type CreateSessionInput,
  type EndTurnInput,
  type EventLogStore,
  hasEventLog,
  type JsonValue,
  type ListOptions,
  MAX_EVENTS_PER_APPEND,
  type PruneEventsOptions,
  type ReadEventsOptions,
  type SessionChange,
  type SessionPatch,
  type SessionRecord,
  type SessionStore,
  type SessionSummary,
  type StoredApproval,
  TURN_STATES,
  type TurnEvent,
  type TurnEventLog,
  type TurnEventsChange,
  type TurnRecord,
  type TurnState,
} from './types.js';
