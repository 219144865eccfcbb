// The impossible branch of an exhaustive switch, shared by every package (ADR 0230): one message, one safe
// serialiser. render-intent's public `assertNever` throws its own `RenderIntentError` with this same message.

/** Longest JSON excerpt an error message embeds. */
const MAX_JSON = 200;
/** Deepest nesting the excerpt descends into. */
const MAX_DEPTH = 8;

/**
 * Serialises any value for an error message without ever throwing: cycles become `"[Circular]"`,
 * bigints `"<n>n"`, functions and symbols a tag, deep nesting `"[…]"`, and the text stops after
 * `max` characters (the walk stops too, so a huge value costs no more than a small one).
 */
export function safeJson(value: unknown, max: number = MAX_JSON): string {
  let out = '';
  let full = false;
  const seen = new Set<object>();
  const emit = (s: string): void => {
    if (full) return;
    out += s;
    if (out.length > max) full = true;
  };
  const walk = (v: unknown, depth: number): void => {
    if (full) return;
    switch (typeof v) {
      case 'string':
        emit(JSON.stringify(v));
        return;
      case 'number':
        emit(Number.isFinite(v) ? String(v) : 'null');
        return;
      case 'boolean':
        emit(String(v));
        return;
      case 'bigint':
        emit(JSON.stringify(`${v}n`));
        return;
      case 'undefined':
        emit('null');
        return;
      case 'function':
        emit('"[Function]"');
        return;
      case 'symbol':
        emit('"[Symbol]"');
        return;
    }
    if (v === null) {
      emit('null');
      return;
    }
    const obj = v as object;
    if (seen.has(obj)) {
      emit('"[Circular]"');
      return;
    }
    if (depth >= MAX_DEPTH) {
      emit('"[…]"');
      return;
    }
    seen.add(obj);
    try {
      if (Array.isArray(obj)) {
        emit('[');
        for (let i = 0; i < obj.length && !full; i++) {
          if (i > 0) emit(',');
          walk(obj[i], depth + 1);
        }
        emit(']');
      } else {
        emit('{');
        let first = true;
        for (const key in obj) {
          if (full) break;
          if (!Object.hasOwn(obj, key)) continue;
          if (!first) emit(',');
          first = false;
          emit(`${JSON.stringify(key)}:`);
          let item: unknown;
          try {
            item = (obj as Record<string, unknown>)[key];
          } catch {
            item = '[Unreadable]';
          }
          walk(item, depth + 1);
        }
        emit('}');
      }
    } catch {
      emit('"[Unreadable]"');
    } finally {
      seen.delete(obj);
    }
  };
  try {
    walk(value, 0);
  } catch {
    return '"[Unreadable]"';
  }
  return out.length > max ? `${out.slice(0, max)}…(truncated)` : out;
}

/** The message of an impossible branch: `unreachable variant in <ctx>: <json excerpt>` (never throws). */
export function unreachableMessage(value: unknown, ctx: string): string {
  return `unreachable variant in ${ctx}: ${safeJson(value)}`;
}

/**
 * Marks a branch the type checker proved unreachable (`default: return assertNever(x, 'what')`); at run time (a
 * value forced through a cast, or data from a newer peer) it throws an `Error` with {@link unreachableMessage}.
 */
export function assertNever(value: never, ctx = 'switch'): never {
  throw new Error(unreachableMessage(value, ctx));
}
