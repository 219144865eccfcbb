import { isPlainObject, setOwn } from './object.js';

/** Why a value could not be cloned as JSON data; never contains any part of the value itself. */
export type JsonCloneFailure =
  | 'cycle'
  | 'too-deep'
  | 'function'
  | 'symbol'
  | 'bigint'
  | 'undefined'
  | 'non-finite-number'
  | 'non-plain-object'
  | 'invalid-date'
  | 'unreadable';

/** Result of {@link cloneJson}. */
export type JsonCloneResult = { ok: true; value: unknown } | { ok: false; reason: JsonCloneFailure };

/** Maximum nesting accepted before a value counts as not serialisable (keeps recursion far from the stack limit). */
export const MAX_JSON_DEPTH = 1000;

class CloneError extends Error {
  constructor(readonly reason: JsonCloneFailure) {
    super(reason);
  }
}

/**
 * Deep-copies `value` as JSON data (plain objects, arrays, strings, finite numbers, booleans, null), with
 * JSON's rules for `undefined` object members (omitted) and `Date` (ISO string). Anything else — functions,
 * symbols, bigints, NaN/Infinity, cycles, class instances, throwing getters, nesting over
 * {@link MAX_JSON_DEPTH} — is a failure with a reason code. Never throws.
 */
export function cloneJson(value: unknown): JsonCloneResult {
  try {
    return { ok: true, value: cloneValue(value, new Set(), 0, false) };
  } catch (error) {
    if (error instanceof CloneError) return { ok: false, reason: error.reason };
    // A Proxy trap or getter threw something that is not ours.
    return { ok: false, reason: 'unreadable' };
  }
}

function cloneValue(value: unknown, path: Set<object>, depth: number, inObject: boolean): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new CloneError('non-finite-number');
      return value === 0 ? 0 : value; // -0 becomes 0, as JSON would write it
    case 'undefined':
      if (inObject) return undefined;
      throw new CloneError('undefined');
    case 'function':
      throw new CloneError('function');
    case 'symbol':
      throw new CloneError('symbol');
    case 'bigint':
      throw new CloneError('bigint');
    case 'object':
      return cloneObject(value, path, depth);
    default:
      throw new CloneError('non-plain-object');
  }
}

function cloneObject(value: object | null, path: Set<object>, depth: number): unknown {
  if (value === null) return null;
  if (depth >= MAX_JSON_DEPTH) throw new CloneError('too-deep');
  if (path.has(value)) throw new CloneError('cycle');
  if (value instanceof Date) {
    const time = value.getTime();
    if (!Number.isFinite(time)) throw new CloneError('invalid-date');
    return value.toISOString();
  }
  path.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    const length = value.length;
    const arr: unknown[] = new Array(length);
    for (let i = 0; i < length; i++) arr[i] = cloneValue(value[i], path, depth + 1, false);
    out = arr;
  } else if (isPlainObject(value)) {
    const obj: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = cloneValue(value[key], path, depth + 1, true);
      if (item !== undefined) setOwn(obj, key, item);
    }
    out = obj;
  } else {
    throw new CloneError('non-plain-object');
  }
  path.delete(value);
  return out;
}
