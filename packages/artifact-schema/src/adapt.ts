import { TOOL_ARTIFACT_SCHEMA } from './constants.js';
import { isErrorSet, makeArtifact, snapshotArtifact, withExtraKeys } from './internal/artifact.js';
import { cloneJson } from './internal/json.js';
import { isPayloadShape, isPlainObject, readProp, setOwn, shallowCopy } from './internal/object.js';
import type {
  ArtifactPayload,
  ToolArtifact,
  ToolResult,
  ToolResultCodeagent,
  ToolResultExtra,
} from './schema.js';

const RESULT_OWN = new Set(['value', 'extra']);
const EVENT_OWN = new Set(['value', 'extra', 'artifact']);
const NOTHING = new Set<string>();

/**
 * The replacement for missing or garbage metadata, built from the portable value: a v1 `error` artifact
 * (`{message: value}`, titled with the tool's name when known) for an error result, else a v1 `text` artifact.
 * This is what the R implementation synthesizes too, so every renderer draws an error card for it.
 */
function synthesized(value: string, forcedError: boolean, title: string | null = null): ToolArtifact {
  return forcedError
    ? makeArtifact('error', 'error', null, title, { message: value })
    : makeArtifact('text', 'success', null, null, { text: value });
}

/** `{kind, payload, ...}` with neither `schema` nor `version`: the pre-versioning artifact shape. */
function upgradeLegacy(a: Record<string, unknown>, forcedError: boolean): ToolArtifact | null {
  if (readProp(a, 'schema') !== undefined || readProp(a, 'version') !== undefined) return null;
  const kind = readProp(a, 'kind');
  if (typeof kind !== 'string' || kind.length === 0) return null;
  const payload = readProp(a, 'payload');
  if (!isPayloadShape(payload)) return null;
  const cloned = cloneJson(payload);
  if (!cloned.ok) return null;
  const rawStatus = readProp(a, 'status');
  const status = typeof rawStatus === 'string' && rawStatus.length > 0 ? rawStatus : 'success';
  const icon = readProp(a, 'icon');
  const title = readProp(a, 'title');
  return makeArtifact(
    kind,
    forcedError || kind === 'error' ? 'error' : status,
    typeof icon === 'string' ? icon : null,
    typeof title === 'string' ? title : null,
    cloned.value as ArtifactPayload,
  );
}

/** Adapts one artifact candidate; the result is always a valid artifact (v1, or a valid future one untouched). */
function adaptArtifact(
  candidate: unknown,
  value: string,
  forcedError: boolean,
  title: string | null,
): ToolArtifact {
  const snapshot = snapshotArtifact(candidate);
  if (snapshot !== null) {
    if (snapshot.version !== 1) {
      // A valid future version passes untouched (as JSON data); the v1 error rule is not its contract.
      const cloned = cloneJson(withExtraKeys(snapshot, candidate as object));
      return cloned.ok ? (cloned.value as ToolArtifact) : synthesized(value, forcedError, title);
    }
    const payload = cloneJson(snapshot.payload);
    if (!payload.ok) return synthesized(value, forcedError, title);
    const status = forcedError || snapshot.kind === 'error' ? 'error' : snapshot.status;
    return makeArtifact(
      snapshot.kind,
      status,
      snapshot.icon,
      snapshot.title,
      payload.value as ArtifactPayload,
    );
  }
  if (isPlainObject(candidate)) {
    const upgraded = upgradeLegacy(candidate, forcedError);
    if (upgraded !== null) return upgraded;
  }
  return synthesized(value, forcedError, title);
}

/** The tool's name of a result (`request.name`) or of a stream event (`name`), used to title a synthesized error. */
function toolName(x: object, isEvent: boolean): string | null {
  const request = readProp(x, 'request');
  const fromRequest = typeof request === 'object' && request !== null ? readProp(request, 'name') : undefined;
  if (typeof fromRequest === 'string' && fromRequest.length > 0) return fromRequest;
  const name = isEvent ? readProp(x, 'name') : undefined;
  return typeof name === 'string' && name.length > 0 ? name : null;
}

/**
 * Returns a normalised copy of a tool result, never throwing: a legacy unversioned artifact is upgraded to v1,
 * a valid future version is kept untouched, missing or garbage metadata is replaced by an artifact built from
 * `value` (a v1 `error` artifact `{message: value}` titled with the tool's name for an error result, else a v1
 * `text` artifact), a set `error` (or `kind: "error"`) forces `status: "error"` on v1, and `request`, `error`,
 * `extra.display` and every other unrelated key are preserved. A bare artifact adapts to a result that carries
 * it (with an empty value); a stream event's `artifact` moves to `extra.codeagent.artifact`. Idempotent:
 * adapting twice equals adapting once. A string is treated as the value of a new result; other non-objects
 * give an empty value.
 */
export function adaptToolResult(x: unknown): ToolResult {
  if (typeof x !== 'object' || x === null) {
    const value = typeof x === 'string' ? x : '';
    return { value, extra: { codeagent: { artifact: synthesized(value, false) } } };
  }
  if (readProp(x, 'schema') === TOOL_ARTIFACT_SCHEMA) {
    // A bare artifact: the result that carries it, with no stray copy of its fields at the top level.
    return { value: '', extra: { codeagent: { artifact: adaptArtifact(x, '', false, null) } } };
  }
  const rawValue = readProp(x, 'value');
  const value = typeof rawValue === 'string' ? rawValue : '';
  const forcedError = isErrorSet(readProp(x, 'error')) || readProp(x, 'isError') === true;

  const rawExtra = readProp(x, 'extra');
  const extra = (isPlainObject(rawExtra) ? shallowCopy(rawExtra, NOTHING) : {}) as ToolResultExtra;
  const rawCodeagent = readProp(extra, 'codeagent');
  const codeagent = (
    isPlainObject(rawCodeagent) ? shallowCopy(rawCodeagent, NOTHING) : {}
  ) as ToolResultCodeagent;
  const carried = readProp(codeagent, 'artifact');
  // A stream event carries its artifact at the top level (`{..., artifact}`): it moves into the result's slot.
  const isEvent = carried === undefined && readProp(x, 'artifact') !== undefined;
  const candidate = isEvent ? readProp(x, 'artifact') : carried;
  codeagent.artifact = adaptArtifact(candidate, value, forcedError, toolName(x, isEvent));
  setOwn(extra, 'codeagent', codeagent);

  const out: Record<string, unknown> = { value, extra };
  const rest = shallowCopy(x, isEvent ? EVENT_OWN : RESULT_OWN);
  for (const key of Object.keys(rest)) setOwn(out, key, rest[key]);
  return out as unknown as ToolResult;
}
