import { adaptToolResult } from './adapt.js';
import { ArtifactSchemaError } from './errors.js';
import { type JsonCloneFailure, cloneJson } from './internal/json.js';
import { makeArtifact, makeResult } from './internal/artifact.js';
import { isPayloadShape, isPlainObject, readProp } from './internal/object.js';
import type { ArtifactKindName, ArtifactPayload, ArtifactStatus, TableColumn, ToolResult } from './schema.js';

/** Options of {@link toolResult}: the rich channels added to the portable value. */
export interface ToolResultOptions {
  /** Render kind; default `text`. Any non-empty string (unknown kinds fall back at render time). */
  kind?: ArtifactKindName | undefined;
  /** Kind-specific payload (plain object or array, JSON-serialisable); defaults exist for `text` and `error`. */
  payload?: ArtifactPayload | undefined;
  /** Plain-text title or `null`. */
  title?: string | null | undefined;
  /** Portable icon name or `null`. */
  icon?: string | null | undefined;
  /** Status; default `success` (`error` for `kind: "error"`, which may not be combined with another status). */
  status?: ArtifactStatus | undefined;
}

function fail(code: ConstructorParameters<typeof ArtifactSchemaError>[0], message: string): never {
  throw new ArtifactSchemaError(code, message);
}

function optionalText(x: unknown, code: 'invalid-title' | 'invalid-icon', name: string): string | null {
  if (x === undefined || x === null) return null;
  if (typeof x !== 'string') fail(code, `toolResult ${name} must be a string or null`);
  return x;
}

/**
 * Creates a three-channel tool result. The first argument is always the portable value (what the model sees);
 * the options add a v1 artifact. Bad `value`, `kind`, `payload`, `title`, `icon` or `status` throw an
 * `ArtifactSchemaError` (a TypeError) at tool-authoring time. The payload is deep-copied as JSON data.
 */
export function toolResult(value: string, options?: ToolResultOptions): ToolResult {
  if (typeof value !== 'string')
    fail('invalid-value', 'toolResult value must be a string (the portable text)');
  if (options !== undefined && !isPlainObject(options))
    fail('invalid-options', 'toolResult options must be an object');
  const o: Record<string, unknown> = options ?? {};
  const kind = o.kind === undefined ? 'text' : o.kind;
  if (typeof kind !== 'string' || kind.length === 0)
    fail('invalid-kind', 'toolResult kind must be a non-empty string');
  const title = optionalText(o.title, 'invalid-title', 'title');
  const icon = optionalText(o.icon, 'invalid-icon', 'icon');
  const status = o.status === undefined ? (kind === 'error' ? 'error' : 'success') : o.status;
  if (typeof status !== 'string' || status.length === 0) {
    fail('invalid-status', 'toolResult status must be a non-empty string');
  }
  if (kind === 'error' && status !== 'error') {
    fail('invalid-status', `toolResult kind "error" always has status "error", got "${status}"`);
  }
  let payload: ArtifactPayload;
  if (o.payload === undefined) {
    if (kind === 'text') payload = { text: value };
    else if (kind === 'error') payload = { message: value };
    else fail('missing-payload', `toolResult kind "${kind}" needs a payload`);
  } else {
    if (!isPayloadShape(o.payload))
      fail('invalid-payload', 'toolResult payload must be a plain object or an array');
    const cloned = cloneJson(o.payload);
    if (!cloned.ok) fail('invalid-payload', `toolResult payload is not JSON-serialisable (${cloned.reason})`);
    payload = cloned.value as ArtifactPayload;
  }
  return makeResult(value, makeArtifact(kind, status, icon, title, payload));
}

/** The fixed value of a result whose output could not be serialised; it never echoes the output. */
export const UNSERIALISABLE_OUTPUT_MESSAGE = 'Tool output could not be serialised: it is not JSON data.';

function columnType(values: readonly unknown[]): string {
  let type: string | null = null;
  for (const cell of values) {
    if (cell === null || cell === undefined) continue;
    const t =
      typeof cell === 'number' || typeof cell === 'string' || typeof cell === 'boolean'
        ? typeof cell
        : 'json';
    if (type === null) type = t;
    else if (type !== t) return 'json';
  }
  return type ?? 'null';
}

function tableColumns(rows: ReadonlyArray<Record<string, unknown>>): TableColumn[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  return names.map((name) => ({ name, type: columnType(rows.map((row) => row[name])) }));
}

function unserialisable(reason: JsonCloneFailure): ToolResult {
  return makeResult(
    UNSERIALISABLE_OUTPUT_MESSAGE,
    makeArtifact('error', 'error', null, null, { message: UNSERIALISABLE_OUTPUT_MESSAGE, detail: reason }),
  );
}

function isToolResultLike(x: unknown): boolean {
  if (!isPlainObject(x) || typeof readProp(x, 'value') !== 'string') return false;
  const extra = readProp(x, 'extra');
  return isPlainObject(extra) && isPlainObject(readProp(extra, 'codeagent'));
}

/**
 * Turns anything a tool may return into a ToolResult, never throwing: a string -> `text`; a ToolResult
 * (`value` string + `extra.codeagent` object) -> adapted copy; a non-empty array of row objects -> `table`
 * (value = the rows as JSON); `undefined` -> empty `text`; other JSON -> `text` with the JSON; anything not
 * serialisable (functions, cycles, bigint, NaN, class instances...) -> an `error` result whose value is a
 * fixed message that never echoes the contents.
 */
export function normalizeToolOutput(output: unknown): ToolResult {
  if (typeof output === 'string')
    return makeResult(output, makeArtifact('text', 'success', null, null, { text: output }));
  if (output === undefined) return makeResult('', makeArtifact('text', 'success', null, null, { text: '' }));
  if (isToolResultLike(output)) return adaptToolResult(output);
  const cloned = cloneJson(output);
  if (!cloned.ok) return unserialisable(cloned.reason);
  const data = cloned.value;
  if (Array.isArray(data) && data.length > 0 && data.every(isPlainObject)) {
    const rows = data as Array<Record<string, unknown>>;
    const json = JSON.stringify(rows);
    return makeResult(
      json,
      makeArtifact('table', 'success', null, null, { df: rows, columns: tableColumns(rows) }),
    );
  }
  const json = JSON.stringify(data, null, 2);
  return makeResult(json, makeArtifact('text', 'success', null, null, { text: json, lang: 'json' }));
}
