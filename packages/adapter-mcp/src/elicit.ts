import { isRecord } from '@codeagent/artifact-schema/internal';
import { cleanServerText, clipServerText } from './text.js';

/** One field of a server's form (elicitation in form mode: primitive values only, by the spec). */
export interface McpElicitField {
  /** The key of the answer. */
  readonly name: string;
  /** A title to show (cleaned server text; the name when none). */
  readonly title: string;
  /** Its description (cleaned). */
  readonly description: string;
  /** The value's type. */
  readonly type: 'string' | 'number' | 'integer' | 'boolean';
  /** For a choice: the allowed values. */
  readonly enum?: readonly string[];
  /** Whether the server requires it. */
  readonly required: boolean;
  /** The server's default (applied when the answer leaves the field out). */
  readonly default?: string | number | boolean;
}

/** A server asking the user something in the middle of a call (`elicitation/create`, form mode). */
export interface McpElicitation {
  /** The configured server name. */
  readonly server: string;
  /** What the server asks (cleaned of escapes and controls; untrusted text). */
  readonly message: string;
  /** The form's fields, in the server's order (at most 50). */
  readonly fields: readonly McpElicitField[];
}

/** The user's answer: accept with values, decline, or cancel (dismissed). */
export type McpElicitAnswer =
  | { readonly action: 'accept'; readonly content: Readonly<Record<string, string | number | boolean>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** The form of an `elicitation/create` request's `requestedSchema`, cleaned; fields of unknown shape are left out. */
export function elicitFields(schema: unknown): McpElicitField[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  const out: McpElicitField[] = [];
  for (const [name, raw] of Object.entries(schema.properties).slice(0, 50)) {
    if (!isRecord(raw)) continue;
    const options = Array.isArray(raw.enum)
      ? raw.enum.filter((e): e is string => typeof e === 'string').map((e) => clipServerText(e, 200))
      : Array.isArray(raw.oneOf)
        ? raw.oneOf.flatMap((o) => (isRecord(o) && typeof o.const === 'string' ? [o.const] : []))
        : undefined;
    const type =
      raw.type === 'number' || raw.type === 'integer' || raw.type === 'boolean' || raw.type === 'string'
        ? raw.type
        : undefined;
    if (type === undefined) continue;
    const d = raw.default;
    out.push({
      name,
      title: clipServerText(typeof raw.title === 'string' ? raw.title : name, 200),
      description: clipServerText(typeof raw.description === 'string' ? raw.description : '', 1000),
      type,
      ...(options && options.length > 0 ? { enum: options } : {}),
      required: required.has(name),
      ...(typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' ? { default: d } : {}),
    });
  }
  return out;
}

/**
 * The answer as the server gets it: only the form's fields, each of its type (a value of another type, or not among
 * a choice's values, is left out); an accepted form missing a required field without a default is a decline, so a
 * server never receives a half-filled form as accepted.
 */
export function elicitResult(
  fields: readonly McpElicitField[],
  answer: McpElicitAnswer,
):
  | { action: 'accept'; content: Record<string, string | number | boolean> }
  | { action: 'decline' | 'cancel' } {
  if (answer.action !== 'accept') return { action: answer.action };
  const content: Record<string, string | number | boolean> = {};
  for (const f of fields) {
    const v = answer.content[f.name];
    if (v === undefined) continue;
    const ok =
      (f.type === 'string' && typeof v === 'string' && (!f.enum || f.enum.includes(v))) ||
      (f.type === 'boolean' && typeof v === 'boolean') ||
      (f.type === 'number' && typeof v === 'number' && Number.isFinite(v)) ||
      (f.type === 'integer' && typeof v === 'number' && Number.isInteger(v));
    if (ok) content[f.name] = v;
  }
  if (fields.some((f) => f.required && content[f.name] === undefined && f.default === undefined))
    return { action: 'decline' };
  return { action: 'accept', content };
}

/** The request's message, cleaned and capped. */
export function elicitMessage(message: unknown): string {
  return cleanServerText(typeof message === 'string' ? message : '').slice(0, 4000);
}
