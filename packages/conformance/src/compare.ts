import { isRecord } from '@codeagent/artifact-schema/internal';
const ARTIFACT_KEYS = ['schema', 'version', 'kind', 'status', 'icon', 'title', 'payload'];

/**
 * Compares an actual JSON value with the expected one: deep equality, where a v1 artifact must also keep its seven
 * keys in contract order (a cross-language rule: JSON consumers see the order). Returns `null` when equal, else the
 * path and what differs.
 */
export function jsonDifference(actual: unknown, expected: unknown, path = '$'): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${describe(actual)}`;
    if (actual.length !== expected.length)
      return `${path}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = jsonDifference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return `${path}: expected an object, got ${describe(actual)}`;
    const want = Object.keys(expected);
    const got = Object.keys(actual);
    for (const k of want) if (!(k in actual)) return `${path}: missing key "${k}"`;
    for (const k of got) if (!(k in expected)) return `${path}: unexpected key "${k}"`;
    if (expected.schema === 'codeagent.tool-artifact' && expected.version === 1) {
      const order = got.filter((k) => ARTIFACT_KEYS.includes(k));
      if (order.join(',') !== ARTIFACT_KEYS.filter((k) => k in expected).join(',')) {
        return `${path}: artifact keys out of contract order (${order.join(', ')})`;
      }
    }
    for (const k of want) {
      const d = jsonDifference(actual[k], expected[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  if (typeof expected === 'number' && typeof actual === 'number') {
    return actual === expected || (Number.isNaN(actual) && Number.isNaN(expected))
      ? null
      : `${path}: expected ${expected}, got ${actual}`;
  }
  return Object.is(actual, expected)
    ? null
    : `${path}: expected ${describe(expected)}, got ${describe(actual)}`;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
