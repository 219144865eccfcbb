import { TOOL_ARTIFACT_SCHEMA } from '../constants.js';
import type { ArtifactPayload, ToolArtifact, ToolResult } from '../schema.js';
import { isPayloadShape, ownKeys, setOwn } from './object.js';

/**
 * The hand-written fast path of `ToolArtifactSchema`: reads each field exactly once (so a getter cannot
 * answer differently between validation and copy), validates it, and returns a fresh artifact with the
 * seven v1 keys in contract order — or `null`. When `versions` is given, other versions answer `null` too.
 * Equivalent to `v.is(ToolArtifactSchema, x)` (property-tested).
 * Never throws.
 */
export function snapshotArtifact(x: unknown, versions: readonly number[] | null = null): ToolArtifact | null {
  if (typeof x !== 'object' || x === null) return null;
  try {
    const o = x as Record<string, unknown>;
    const schema = o.schema;
    if (schema !== TOOL_ARTIFACT_SCHEMA) return null;
    const version = o.version;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return null;
    // Filtering here, before any other read or allocation, keeps rejecting an unsupported version cheap.
    if (versions !== null && (versions.length === 1 ? versions[0] !== version : !versions.includes(version)))
      return null;
    const kind = o.kind;
    if (typeof kind !== 'string' || kind.length === 0) return null;
    const status = o.status;
    if (typeof status !== 'string' || status.length === 0) return null;
    const icon = o.icon;
    if (icon !== null && typeof icon !== 'string') return null;
    const title = o.title;
    if (title !== null && typeof title !== 'string') return null;
    const payload = o.payload;
    if (!isPayloadShape(payload)) return null;
    return { schema, version, kind, status, icon, title, payload };
  } catch {
    return null;
  }
}

const V1_KEYS: ReadonlySet<string> = new Set([
  'schema',
  'version',
  'kind',
  'status',
  'icon',
  'title',
  'payload',
]);

/**
 * Appends the readable own keys of `source` that are not v1 fields to `snapshot` (used for future versions,
 * which are passed on untouched: their extra fields belong to a contract this package does not know).
 */
export function withExtraKeys(snapshot: ToolArtifact, source: object): ToolArtifact {
  const out = snapshot as ToolArtifact & Record<string, unknown>;
  for (const key of ownKeys(source)) {
    if (V1_KEYS.has(key)) continue;
    try {
      setOwn(out, key, (source as Record<string, unknown>)[key]);
    } catch {
      // Unreadable extra key: dropped.
    }
  }
  return out;
}

/** Whether a tool result's `error` field counts as set (anything but `undefined`, `null` or `false`). */
export function isErrorSet(error: unknown): boolean {
  return error !== undefined && error !== null && error !== false;
}

/** Builds a v1 artifact with the contract's key order. */
export function makeArtifact(
  kind: string,
  status: string,
  icon: string | null,
  title: string | null,
  payload: ArtifactPayload,
): ToolArtifact {
  return { schema: TOOL_ARTIFACT_SCHEMA, version: 1, kind, status, icon, title, payload };
}

/** Wraps an artifact into the three-channel result shape. */
export function makeResult(value: string, artifact: ToolArtifact): ToolResult {
  return { value, extra: { codeagent: { artifact } } };
}
