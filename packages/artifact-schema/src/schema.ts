import * as v from 'valibot';
import { type ArtifactKind, TOOL_ARTIFACT_SCHEMA } from './constants.js';
import { isPayloadShape } from './internal/object.js';

/** An artifact kind as read from peers: a known kind or any other non-empty string (open enum). */
export type ArtifactKindName = ArtifactKind | (string & {});

/** An artifact status: `success`, `error`, or any other non-empty string such as `denied` (open enum). */
export type ArtifactStatus = 'success' | 'error' | (string & {});

/** An artifact payload: a plain object or an array (kind-specific; readers tolerate extra fields). */
export type ArtifactPayload = Record<string, unknown> | unknown[];

const nonEmptyString = v.pipe(v.string(), v.minLength(1));

/** Payload gate: a plain object or an array (valibot's object/record would also accept Dates and class instances). */
export const ArtifactPayloadSchema = v.custom<ArtifactPayload>(
  isPayloadShape,
  'payload must be a plain object or an array',
);

/**
 * A tool artifact: versioned, UI-agnostic structured data, always with the keys
 * `schema, version, kind, status, icon, title, payload` in that order. Equal to the output type of
 * {@link ToolArtifactSchema} (checked by a type test).
 */
export interface ToolArtifact {
  /** Always `"codeagent.tool-artifact"`. */
  schema: typeof TOOL_ARTIFACT_SCHEMA;
  /** Protocol version: a finite positive integer (1 for v1). */
  version: number;
  /** Render kind: a known {@link ArtifactKind} or any other non-empty string. */
  kind: ArtifactKindName;
  /** Non-empty status, `error` whenever the kind is `error` or the tool failed. */
  status: ArtifactStatus;
  /** Portable icon name or `null`. */
  icon: string | null;
  /** Plain-text title or `null`. */
  title: string | null;
  /** Kind-specific payload: a plain object or an array. */
  payload: ArtifactPayload;
}

// The object schema behind ToolArtifactSchema, with its precise valibot type.
const toolArtifactObjectSchema = v.object({
  schema: v.literal(TOOL_ARTIFACT_SCHEMA),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  kind: nonEmptyString as v.GenericSchema<ArtifactKindName>,
  status: nonEmptyString as v.GenericSchema<ArtifactStatus>,
  icon: v.nullable(v.string()),
  title: v.nullable(v.string()),
  payload: ArtifactPayloadSchema,
});

/**
 * The valibot schema of a tool artifact (the source of truth for the types and the committed JSON Schema).
 * It accepts any valid version (the version filter is the accessor's job); unknown top-level keys are
 * ignored on read and absent from the parsed output. Payload must be a plain object or an array.
 */
export const ToolArtifactSchema: v.GenericSchema<unknown, ToolArtifact> = toolArtifactObjectSchema;

/** The output type valibot infers for the artifact schema; a type test proves it equals {@link ToolArtifact}. */
export type InferredToolArtifact = v.InferOutput<typeof toolArtifactObjectSchema>;

/** Typical `text` payload. */
export interface TextPayload {
  /** The text. */
  text: string;
  /** Optional language hint (e.g. `json`). */
  lang?: string;
}

/** A JSON value, as carried in table cells. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One column description of a table payload. */
export interface TableColumn {
  /** Column name (a key of the row records). */
  name: string;
  /** Optional type name, e.g. `number`, `string`, `boolean`, `json`. */
  type?: string;
}

/** Typical `table` payload: row records (`df`, the seed's name) plus optional column order and types. */
export interface TablePayload {
  /** Rows as records: the row-records JSON form of a data frame. */
  df: Array<Record<string, JsonValue>>;
  /** Column order and types (kept even for zero rows). */
  columns?: TableColumn[];
}

/** One image of an image payload. */
export interface ImageItem {
  /** Media type, e.g. `image/png`. */
  mime: string;
  /** Base64 data. */
  b64: string;
}

/** Typical `image` payload. */
export interface ImagePayload {
  /** The images. */
  images: ImageItem[];
  /** Optional accompanying text output. */
  output?: string;
}

/** Typical `code` payload. */
export interface CodePayload {
  /** Source text. */
  text: string;
  /** Language hint. */
  lang?: string;
  /** File name hint. */
  filename?: string;
  /** Output of running the code, if any. */
  output?: string;
}

/** Typical `diff` payload. */
export interface DiffPayload {
  /** Text before. */
  old: string;
  /** Text after. */
  new: string;
  /** Path of the changed file. */
  path?: string;
}

/** Typical `error` payload. */
export interface ErrorPayload {
  /** Human-readable message. */
  message: string;
  /** Optional detail. */
  detail?: string;
}

/** The typical payload for each known kind (hosts still validate what they read: payloads are untrusted). */
export interface ArtifactPayloadMap {
  /** See {@link TextPayload}. */
  text: TextPayload;
  /** See {@link TablePayload}. */
  table: TablePayload;
  /** See {@link ImagePayload}. */
  image: ImagePayload;
  /** See {@link CodePayload}. */
  code: CodePayload;
  /** See {@link DiffPayload}. */
  diff: DiffPayload;
  /** See {@link ErrorPayload}. */
  error: ErrorPayload;
}

/** The tool call a result answers. */
export interface ToolRequest {
  /** Tool call id. */
  id: string;
  /** Tool name. */
  name: string;
  /** Call arguments as the model sent them. */
  arguments: unknown;
}

/** The `extra.codeagent` namespace of a tool result. */
export interface ToolResultCodeagent {
  /** The versioned artifact. */
  artifact: ToolArtifact;
  /** Other codeagent metadata (provenance...), preserved untouched. */
  [key: string]: unknown;
}

/** The `extra` channel of a tool result. */
export interface ToolResultExtra {
  /** The codeagent namespace holding the artifact. */
  codeagent: ToolResultCodeagent;
  /** Optional host-toolkit display data; third parties never parse it. */
  display?: unknown;
  /** Unrelated keys, preserved untouched. */
  [key: string]: unknown;
}

/**
 * A three-channel tool result: `value` (portable text for the model and every UI's fallback),
 * `extra.codeagent.artifact` (versioned structured data) and optional `extra.display`.
 */
export interface ToolResult {
  /** Portable text: what the model sees, and every UI's last fallback. */
  value: string;
  /** Structured channels. */
  extra: ToolResultExtra;
  /** Set when the tool or provider failed (anything but `undefined`, `null` or `false` counts as set). */
  error?: unknown;
  /** The request this result answers. */
  request?: ToolRequest;
}
