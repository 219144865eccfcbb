import { ArtifactSchemaError } from './errors.js';
import { isErrorSet, snapshotArtifact, withExtraKeys } from './internal/artifact.js';
import { TOOL_ARTIFACT_SCHEMA, TOOL_ARTIFACT_VERSION } from './constants.js';
import type { ToolArtifact } from './schema.js';

/**
 * The versions a consumer supports: one version, a non-empty list, or `null` to turn the version filter off
 * (schema and shape validation still apply).
 */
export type ArtifactVersionOption = number | readonly number[] | null;

/** Options of {@link toolResultArtifact}. */
export interface ToolResultArtifactOptions {
  /** Supported version(s); default `1`; `null` accepts any valid version (for forwarding middleware). */
  version?: ArtifactVersionOption | undefined;
}

function isVersionNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 1;
}

/** A non-empty list of version numbers; holes count as invalid entries (`every` would skip them). */
function isVersionList(x: unknown): x is readonly number[] {
  if (!Array.isArray(x) || x.length === 0) return false;
  for (let i = 0; i < x.length; i++) if (!isVersionNumber(x[i])) return false;
  return true;
}

const DEFAULT_FILTER: readonly number[] = [TOOL_ARTIFACT_VERSION];

/** Validates the `version` option; `null` means no filter. Throws `ArtifactSchemaError` (a TypeError). */
function versionFilter(options: unknown): readonly number[] | null {
  if (options === undefined || options === null) return DEFAULT_FILTER;
  if (typeof options !== 'object') {
    throw new ArtifactSchemaError('invalid-options', 'toolResultArtifact options must be an object');
  }
  let valid = false;
  let version: unknown;
  try {
    version = (options as ToolResultArtifactOptions).version;
    valid = version === undefined || version === null || isVersionNumber(version) || isVersionList(version);
  } catch {
    valid = false;
  }
  if (valid) {
    if (version === undefined) return DEFAULT_FILTER;
    if (version === null) return null;
    if (isVersionNumber(version)) return version === 1 ? DEFAULT_FILTER : [version];
    return [...(version as readonly number[])];
  }
  throw new ArtifactSchemaError(
    'invalid-version-option',
    'version must be a finite positive integer, a non-empty array of them, or null',
  );
}

/** The shapes the accessor navigates; every read is named (monomorphic, fast) and guarded by try/catch. */
interface Container {
  schema?: unknown;
  extra?: { codeagent?: { artifact?: unknown } };
  artifact?: unknown;
  error?: unknown;
  isError?: unknown;
}

/**
 * Finds the artifact candidate: a bare artifact (`schema` is the protocol's; returned as is), a ToolResult
 * (`extra.codeagent.artifact`) or a stream event (`artifact`). A container that throws while being read
 * yields no candidate. Never throws.
 */
function locate(x: object): unknown {
  try {
    const o = x as Container;
    if (o.schema === TOOL_ARTIFACT_SCHEMA) return o;
    const extra = o.extra;
    if (typeof extra === 'object' && extra !== null) {
      const codeagent = extra.codeagent;
      if (typeof codeagent === 'object' && codeagent !== null) {
        const artifact = codeagent.artifact;
        if (artifact !== undefined) return artifact;
      }
    }
    return o.artifact;
  } catch {
    return undefined;
  }
}

/** Whether a ToolResult's `error` is set or a stream event has `isError: true`; a throwing read counts as no. */
function containerForcesError(x: object): boolean {
  const o = x as Container;
  try {
    if (isErrorSet(o.error)) return true;
  } catch {
    // unreadable error: not set
  }
  try {
    return o.isError === true;
  } catch {
    return false;
  }
}

/**
 * Returns a validated copy of the artifact in a ToolResult, a stream event or a bare artifact, or `null` when
 * there is none, it is malformed, or its version is not one the consumer supports. Never throws on `x`;
 * throws an `ArtifactSchemaError` (a TypeError) for an invalid `version` option, always.
 *
 * The copy of a v1 artifact has exactly the seven v1 keys in contract order with the v1 error-status rule
 * applied (`kind: "error"`, a set `error` or `isError: true` => `status: "error"`); a future version (only
 * returned when asked for) keeps its own extra keys and is otherwise untouched. The payload is shared, not cloned.
 */
export function toolResultArtifact(x: unknown, options?: ToolResultArtifactOptions): ToolArtifact | null {
  const filter = options === undefined ? DEFAULT_FILTER : versionFilter(options);
  if (typeof x !== 'object' || x === null) return null;
  const candidate = locate(x);
  const artifact = snapshotArtifact(candidate, filter);
  if (artifact === null) return null;
  if (artifact.version !== 1) return withExtraKeys(artifact, candidate as object);
  // A bare artifact (candidate === x) has no container that could force an error.
  if (artifact.kind === 'error' || (candidate !== x && containerForcesError(x))) artifact.status = 'error';
  return artifact;
}

/**
 * The portable text of a ToolResult or stream event (its `value`), the string itself for a string, or
 * `fallback` when there is none. Never throws on `x`; a non-string `fallback` throws an `ArtifactSchemaError`.
 */
export function toolResultValue(x: unknown, fallback = ''): string {
  if (typeof fallback !== 'string') {
    throw new ArtifactSchemaError('invalid-fallback', 'toolResultValue fallback must be a string');
  }
  if (typeof x === 'string') return x;
  if (typeof x !== 'object' || x === null) return fallback;
  try {
    const value = (x as { value?: unknown }).value;
    return typeof value === 'string' ? value : fallback;
  } catch {
    return fallback;
  }
}
