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
const NOTHING = new Set<string>();

/** A v1 `text` artifact built from the portable value: the replacement for missing or garbage metadata. */
function synthesized(value: string, forcedError: boolean): ToolArtifact {
  return makeArtifact('text', forcedError ? 'error' : 'success', null, null, { text: value });
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
function adaptArtifact(candidate: unknown, value: string, forcedError: boolean): ToolArtifact {
  const snapshot = snapshotArtifact(candidate);
  if (snapshot !== null) {
    if (snapshot.version !== 1) {
      // A valid future version passes untouched (as JSON data); the v1 error rule is not its contract.
      const cloned = cloneJson(withExtraKeys(snapshot, candidate as object));
      return cloned.ok ? (cloned.value as ToolArtifact) : synthesized(value, forcedError);
    }
    const payload = cloneJson(snapshot.payload);
    if (!payload.ok) return synthesized(value, forcedError);
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
  return synthesized(value, forcedError);
}

/**
 * Returns a normalised copy of a tool result, never throwing: a legacy unversioned artifact is upgraded to v1,
 * a valid future version is kept untouched, missing or garbage metadata is replaced by a v1 `text` artifact
 * built from `value`, a set `error` (or `kind: "error"`) forces `status: "error"` on v1, and `request`,
 * `error`, `extra.display` and every other unrelated key are preserved. Idempotent: adapting twice equals
 * adapting once. A string is treated as the value of a new result; other non-objects give an empty value.
 */
export function adaptToolResult(x: unknown): ToolResult {
  if (typeof x !== 'object' || x === null) {
    const value = typeof x === 'string' ? x : '';
    return { value, extra: { codeagent: { artifact: synthesized(value, false) } } };
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
  codeagent.artifact = adaptArtifact(readProp(codeagent, 'artifact'), value, forcedError);
  setOwn(extra, 'codeagent', codeagent);

  const out: Record<string, unknown> = { value, extra };
  const rest = shallowCopy(x, RESULT_OWN);
  for (const key of Object.keys(rest)) setOwn(out, key, rest[key]);
  return out as unknown as ToolResult;
}
