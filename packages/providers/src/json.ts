import { ProvidersError } from './errors.js';

/** A JSON value, as a scripted tool call's input. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

const MAX_DEPTH = 200;

/** Serialises a value as JSON, or throws an `invalid-script` error naming `where` (cycles, functions, NaN, depth). */
export function toJsonText(value: unknown, where: string): string {
  check(value, where, 0, new Set());
  return JSON.stringify(value);
}

function fail(where: string, why: string): never {
  throw new ProvidersError('invalid-script', `${where} is not JSON: ${why}`, { field: where });
}

function check(value: unknown, where: string, depth: number, stack: Set<object>): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(where, `${value} is not a finite number`);
    return;
  }
  if (typeof value !== 'object') fail(where, `a ${typeof value} cannot be serialised`);
  if (depth >= MAX_DEPTH) fail(where, `nested deeper than ${MAX_DEPTH} levels`);
  if (stack.has(value)) fail(where, 'it contains a cycle');
  if (!Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      fail(where, 'only plain objects and arrays are allowed');
  }
  stack.add(value);
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) check(child, where, depth + 1, stack);
  stack.delete(value);
}
