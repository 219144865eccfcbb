// Defensive object helpers: every read of untrusted data goes through these so that throwing getters,
// hostile Proxies and exotic objects can never make a public function throw.

/** True for `{}`-like objects: prototype is null or some realm's `Object.prototype`; never throws. */
export function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null) return false;
  try {
    if (Array.isArray(x)) return false;
    const proto: unknown = Object.getPrototypeOf(x);
    return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
  } catch {
    return false;
  }
}

/**
 * True for any object that is not `null` or an array (what JSON calls an object, whatever its prototype);
 * never throws (a revoked Proxy answers `false`).
 */
export function isRecord(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null) return false;
  try {
    return !Array.isArray(x);
  } catch {
    return false;
  }
}

/** Converts an untrusted value to a string without throwing (`null`/`undefined`/unconvertible give `''`). */
export function toText(x: unknown): string {
  if (typeof x === 'string') return x;
  if (x === undefined || x === null) return '';
  try {
    return String(x);
  } catch {
    return '';
  }
}

/** True for a plain object or an array (the payload shape); never throws. On the accessor's hot path. */
export function isPayloadShape(x: unknown): x is Record<string, unknown> | unknown[] {
  if (typeof x !== 'object' || x === null) return false;
  try {
    if (Array.isArray(x)) return true;
    const proto: unknown = Object.getPrototypeOf(x);
    return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
  } catch {
    return false;
  }
}

/** Reads one property, answering `undefined` when the read throws. */
export function readProp(obj: object, key: string): unknown {
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Own enumerable string keys, or `[]` when enumerating throws (revoked Proxy, hostile trap). */
export function ownKeys(obj: object): string[] {
  try {
    return Object.keys(obj);
  } catch {
    return [];
  }
}

/** Defines an own data property, safe for the key `__proto__` (plain assignment would change the prototype). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/**
 * Shallow copy of the readable own enumerable keys of `obj`, skipping `skip` and any key whose getter throws.
 * Keys keep their order.
 */
export function shallowCopy(obj: object, skip: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ownKeys(obj)) {
    if (skip.has(key)) continue;
    try {
      setOwn(out, key, (obj as Record<string, unknown>)[key]);
    } catch {
      // An unreadable key is dropped: it cannot be preserved without running hostile code again.
    }
  }
  return out;
}
