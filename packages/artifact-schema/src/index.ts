export { toolResultArtifact, toolResultValue } from './accessors.js';
export type { ArtifactVersionOption, ToolResultArtifactOptions } from './accessors.js';
export { adaptToolResult } from './adapt.js';
export { ArtifactSchemaError } from './errors.js';
export type { ArtifactSchemaErrorCode } from './errors.js';
export { normalizeToolOutput, toolResult, UNSERIALISABLE_OUTPUT_MESSAGE } from './produce.js';
export type { ToolResultOptions } from './produce.js';
export { ARTIFACT_KINDS, TOOL_ARTIFACT_SCHEMA, TOOL_ARTIFACT_VERSION } from './constants.js';
export type { ArtifactKind } from './constants.js';
export { ArtifactPayloadSchema, ToolArtifactSchema } from './schema.js';
export type {
  ArtifactKindName,
  ArtifactPayload,
  ArtifactPayloadMap,
  ArtifactStatus,
  CodePayload,
  DiffPayload,
  ErrorPayload,
  ImageItem,
  ImagePayload,
  JsonValue,
  TableColumn,
  TablePayload,
  TextPayload,
  ToolArtifact,
  ToolRequest,
  ToolResult,
  ToolResultCodeagent,
  ToolResultExtra,
} from './schema.js';
