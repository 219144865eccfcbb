import { isRecord as isRec } from '@codeagent/artifact-schema/internal';
import { SessionStoreError } from './errors.js';
import {
  type ApprovalAnswer,
  type JsonValue,
  type SessionRecord,
  type StoredApproval,
  TURN_STATES,
  type TurnRecord,
  type TurnState,
} from './types.js';

/** Largest record (its JSON text) a store writes by default: 64 MiB. */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** Longest title a store takes. */
export const MAX_TITLE_CHARS = 1000;
/** Most metadata entries a store takes. */
export const MAX_META_ENTRIES = 64;
/** Longest metadata value a store takes. */
export const MAX_META_VALUE_CHARS = 4096;

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const META_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** True when `id` has the shape of a session id: letters, digits, `.`, `_`, `-`, at most 128, not starting with a sign. */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && ID.test(id);
}

function invalidInput(message: string, sessionId?: string): SessionStoreError {
  return new SessionStoreError('invalid-input', message, sessionId === undefined ? {} : { sessionId });
}

/** Throws `invalid-input` unless `id` is a session id. */
export function checkId(id: unknown): string {
  if (!isSessionId(id)) {
    const shown = typeof id === 'string' ? JSON.stringify(id.slice(0, 40)) : typeof id;
    throw invalidInput(`invalid session id ${shown} (letters, digits, '.', '_', '-'; at most 128)`);
  }
  return id;
}

/** Throws `invalid-input` unless `title` is text of at most {@link MAX_TITLE_CHARS} characters. */
export function checkTitle(title: unknown, id?: string): string {
  if (typeof title !== 'string') throw invalidInput('a session title must be text', id);
  if (title.length > MAX_TITLE_CHARS)
    throw invalidInput(`a session title has at most ${MAX_TITLE_CHARS} characters`, id);
  return title;
}

/** Throws `invalid-input` unless `meta` is a small map of short strings. */
export function checkMeta(meta: unknown, id?: string): Record<string, string> {
  if (!isRec(meta)) throw invalidInput('session metadata must be an object of strings', id);
  const keys = Object.keys(meta);
  if (keys.length > MAX_META_ENTRIES) throw invalidInput(`at most ${MAX_META_ENTRIES} metadata entries`, id);
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = meta[key];
    if (!META_KEY.test(key))
      throw invalidInput(`invalid metadata key ${JSON.stringify(key.slice(0, 70))}`, id);
    if (typeof value !== 'string' || value.length > MAX_META_VALUE_CHARS)
      throw invalidInput(`metadata "${key}" must be text of at most ${MAX_META_VALUE_CHARS} characters`, id);
    out[key] = value;
  }
  return out;
}

/** `JSON.stringify` that reports a value it cannot write (a cycle, a BigInt, nesting too deep) as `invalid-input`. */
export function encodeJson(value: unknown, what: string, id?: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value ?? null);
  } catch (error) {
    throw invalidInput(`${what} is not JSON: ${(error as Error).message}`, id);
  }
  if (text === undefined) throw invalidInput(`${what} is not JSON`, id);
  return text;
}

/** `JSON.parse` of stored text that reports garbage as `invalid-data`. */
export function decodeJson(text: unknown, what: string, id?: string): JsonValue {
  if (typeof text !== 'string') throw damaged(id, `${what} is not text`);
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw damaged(id, `${what} is not valid JSON (${(error as Error).message.slice(0, 80)})`);
  }
}

/** The error for a stored row that cannot be read. */
export function damaged(id: string | undefined, reason: string): SessionStoreError {
  return new SessionStoreError(
    'invalid-data',
    `stored session ${id === undefined ? '' : `"${id}" `}is damaged: ${reason}`,
    id === undefined ? {} : { sessionId: id },
  );
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function str(x: unknown, field: string, id: string | undefined, max = 100_000): string {
  if (typeof x !== 'string' || x.length > max) throw damaged(id, `${field} is not text`);
  return x;
}

function time(x: unknown, field: string, id: string | undefined): string {
  if (typeof x !== 'string' || !ISO.test(x)) throw damaged(id, `${field} is not an ISO 8601 time`);
  return x;
}

function storedMeta(x: unknown, id: string | undefined): Record<string, string> {
  if (!isRec(x)) throw damaged(id, 'meta is not an object');
  const out: Record<string, string> = {};
  let n = 0;
  for (const [k, v] of Object.entries(x)) {
    if (++n > MAX_META_ENTRIES * 4) throw damaged(id, 'meta has too many entries');
    if (typeof v !== 'string') throw damaged(id, `meta "${k.slice(0, 40)}" is not text`);
    out[k] = v;
  }
  return out;
}

/** Reads a stored turn (untrusted). */
export function decodeTurn(x: unknown, id: string | undefined): TurnRecord | null {
  if (x === null || x === undefined) return null;
  if (!isRec(x)) throw damaged(id, 'turn is not an object');
  const state = x.state;
  if (typeof state !== 'string' || !(TURN_STATES as readonly string[]).includes(state))
    throw damaged(id, `turn.state must be one of ${TURN_STATES.join(', ')}`);
  if (!Array.isArray(x.steps)) throw damaged(id, 'turn.steps is not a list');
  if (x.owner !== null && typeof x.owner !== 'string') throw damaged(id, 'turn.owner is not text');
  return {
    id: str(x.id, 'turn.id', id, 200),
    state: state as TurnState,
    owner: x.owner === null ? null : str(x.owner, 'turn.owner', id, 500),
    prompt: (x.prompt ?? null) as JsonValue,
    steps: x.steps as JsonValue[],
    startedAt: time(x.startedAt, 'turn.startedAt', id),
    updatedAt: time(x.updatedAt, 'turn.updatedAt', id),
  };
}

function decodeAnswer(x: unknown, id: string | undefined): ApprovalAnswer | null {
  if (x === null || x === undefined) return null;
  if (!isRec(x) || typeof x.approved !== 'boolean') throw damaged(id, 'an approval answer is malformed');
  if (x.reason !== null && typeof x.reason !== 'string') throw damaged(id, 'an approval reason is not text');
  return {
    approved: x.approved,
    reason: x.reason === null ? null : str(x.reason, 'answer.reason', id, 10_000),
    answeredAt: time(x.answeredAt, 'answer.answeredAt', id),
  };
}

/** Reads stored approvals (untrusted). */
export function decodePending(x: unknown, id: string | undefined): StoredApproval[] {
  if (x === null || x === undefined) return [];
  if (!Array.isArray(x)) throw damaged(id, 'pending is not a list');
  if (x.length > 10_000) throw damaged(id, 'pending has too many approvals');
  return x.map((p) => {
    if (!isRec(p)) throw damaged(id, 'a pending approval is not an object');
    return {
      approvalId: str(p.approvalId, 'approvalId', id, 200),
      toolCallId: str(p.toolCallId, 'toolCallId', id, 200),
      toolName: str(p.toolName, 'toolName', id, 200),
      input: (p.input ?? null) as JsonValue,
      requestedAt: time(p.requestedAt, 'requestedAt', id),
      answer: decodeAnswer(p.answer, id),
    };
  });
}

/** Reads a whole stored record (untrusted: a file or a row of the documented shape); `invalid-data` when it is not one. */
export function decodeRecord(x: unknown, expectedId?: string): SessionRecord {
  if (!isRec(x)) throw damaged(expectedId, 'not an object');
  const id = x.id;
  if (!isSessionId(id)) throw damaged(expectedId, 'id is missing or malformed');
  if (expectedId !== undefined && id !== expectedId) throw damaged(expectedId, `it names another id "${id}"`);
  const version = x.version;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1)
    throw damaged(id, 'version is not a positive integer');
  return {
    id,
    version,
    title: str(x.title, 'title', id, MAX_TITLE_CHARS * 4),
    createdAt: time(x.createdAt, 'createdAt', id),
    updatedAt: time(x.updatedAt, 'updatedAt', id),
    meta: storedMeta(x.meta ?? {}, id),
    agent: (x.agent ?? null) as JsonValue | null,
    ui: (x.ui ?? null) as JsonValue | null,
    turn: decodeTurn(x.turn, id),
    pending: decodePending(x.pending, id),
  };
}

/** Checks a value given to the store is JSON it can keep (`invalid-input` otherwise) and returns a private copy. */
export function copyJson(value: unknown, what: string, id?: string): JsonValue {
  return JSON.parse(encodeJson(value, what, id)) as JsonValue;
}

/**
 * A large document of a record (`agent`, `ui`) held as its JSON text, not decoded: what a write was given (checked by
 * encoding it) or what a SQLite write loaded and keeps. Written as its text; the record a write returns decodes it
 * when first read ({@link withDecodedDocuments}). Internal: never stored as such, never handed to a host.
 */
export class StoredText {
  /** The JSON text (valid when this store made it; a loaded one is checked when decoded). */
  readonly text: string;
  /** The record's id, for the error naming a damaged document. */
  readonly id: string | undefined;
  constructor(text: string, id?: string) {
    this.text = text;
    this.id = id;
  }
  /** Decodes the text; `invalid-data` when it is not JSON. */
  decode(what: string): JsonValue {
    return decodeJson(this.text, what, this.id);
  }
  /** `JSON.stringify` of a record holding it (PostgreSQL compares records so) gives the document. */
  toJSON(): JsonValue {
    return this.decode('a document');
  }
}

/**
 * A document given to a write (`agent`, `ui`), checked (`invalid-input` when it is not JSON) and kept as its text:
 * the write stores the text, and the caller's value is never decoded back unless the returned record is read.
 */
export function documentCopy(value: unknown, what: string, id?: string): JsonValue {
  return new StoredText(encodeJson(value, what, id), id) as unknown as JsonValue;
}

/**
 * `r` with each {@link StoredText} document replaced by a property that decodes it when first read (a write does
 * not decode what it was given or what it kept; a damaged stored one throws `invalid-data` where it is read).
 */
export function withDecodedDocuments<T extends SessionRecord | undefined>(r: T): T {
  if (r === undefined || (!(r.agent instanceof StoredText) && !(r.ui instanceof StoredText))) return r;
  const out = { ...r } as Record<string, unknown>;
  for (const doc of ['agent', 'ui'] as const) {
    const held: unknown = r[doc];
    if (!(held instanceof StoredText)) continue;
    let value: JsonValue | undefined;
    Object.defineProperty(out, doc, {
      enumerable: true,
      configurable: true,
      get: () => {
        value ??= held.decode(doc);
        return value;
      },
    });
  }
  return out as T;
}

/** The stored text of a value: a {@link StoredText}'s own, else {@link encodeJson}. */
export function storedJson(value: unknown, what: string, id?: string): string {
  return value instanceof StoredText ? value.text : encodeJson(value, what, id);
}
