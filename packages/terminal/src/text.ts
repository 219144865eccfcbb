import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { isolateText, stripSgr } from './ansi.js';
import { enforceStrictOutput, hasUnsafeNonEsc } from './checker.js';

/** Compact JSON for display; never throws (cycles, bigint, functions and too-deep nesting get a marker). */
export function safeJson(value: unknown): string {
  try {
    // Ancestor stack: a value repeated in siblings is fine, only a reference back to an ancestor is a cycle.
    const ancestors: unknown[] = [];
    const json = JSON.stringify(value, function (this: unknown, _key, v: unknown) {
      if (typeof v === 'bigint') return `${v.toString()}n`;
      if (typeof v === 'function' || typeof v === 'symbol') return `[${typeof v}]`;
      if (typeof v !== 'object' || v === null) return v;
      while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
      if (ancestors.includes(v)) return '[circular]';
      ancestors.push(v);
      return v;
    });
    return json ?? String(value);
  } catch {
    return '[unserialisable value]';
  }
}

/** Any untrusted value as raw (still unsanitised) text. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return safeJson(value);
}

const COLON_SGR_RE = /\u001b\[([0-9;]*:[0-9;:]*)m/g;

function colonGroup(group: string): string {
  if (!group.includes(':')) return group;
  const parts = group.split(':');
  const head = parts[0] ?? '';
  if ((head === '38' || head === '48' || head === '58') && parts[1] === '2' && parts.length >= 5) {
    return [head, '2', ...parts.slice(-3).map((x) => x || '0')].join(';');
  }
  if ((head === '38' || head === '48' || head === '58') && parts[1] === '5' && parts.length >= 3) {
    return `${head};5;${parts[2] || '0'}`;
  }
  return head;
}

/**
 * Rewrites ITU T.416 colon sub-parameter SGR (`ESC[38:2::r:g:bm`, `ESC[4:3m`), which the sanitiser keeps,
 * into the plain `;` form so the output only ever contains `ESC [ digits/; m`.
 */
export function normaliseColonSgr(text: string): string {
  if (!text.includes(':')) return text;
  return text.replace(
    COLON_SGR_RE,
    (_m, params: string) => `\u001b[${params.split(';').map(colonGroup).join(';')}m`,
  );
}

/**
 * Sanitises untrusted text for the terminal with `sanitizeTerminalText`, then applies the strict rules
 * (colon SGR rewritten, bidi marks and anything else the checker rejects removed); with colour off even the
 * kept SGR colours are removed.
 */
export function sanitize(value: unknown, color: boolean): string {
  const raw = toText(value);
  const clean = strictAfterSanitiser(
    sanitizeTerminalText(raw.includes('\r\n') ? raw.replace(/\r\n/g, '\n') : raw),
  );
  return color ? clean : stripSgr(clean);
}

/** An ESC that does not start a strict SGR (`ESC [ digits/; m`): one native search instead of a walk per escape. */
const NON_STRICT_ESC = /\u001b(?!\[[0-9;]*m)/;

/**
 * `enforceStrictOutput(normaliseColonSgr(text))` in two native scans instead of four: when every ESC starts a
 * strict SGR, no colon SGR can match (each match starts at an ESC, and a strict SGR holds no other ESC), so only
 * the characters other than ESC are left to check; an ESC that does not start a strict SGR sends the text
 * through the two original steps.
 */
function strictAfterSanitiser(text: string): string {
  if (NON_STRICT_ESC.test(text)) return enforceStrictOutput(normaliseColonSgr(text));
  return hasUnsafeNonEsc(text) ? enforceStrictOutput(text) : text;
}

/** Untrusted multi-line text, sanitised, as one block whose colours are reset at every line end. */
export function safeText(value: unknown, color: boolean): string {
  const clean = sanitize(value, color);
  return color ? isolateText(clean) : clean;
}

/** {@link safeText} split into lines. */
export function safeLines(value: unknown, color: boolean): string[] {
  return safeText(value, color).split('\n');
}

/** Untrusted text for one line (titles, cells, paths): newlines become `↵`, tabs become a space. */
export function safeInline(value: unknown, color: boolean): string {
  const flat = sanitize(value, color).replace(/\n/g, '↵').replace(/\t/g, ' ');
  return color ? isolateText(flat) : flat;
}

/** Removes one trailing newline, so `"a\n"` renders as one line. */
export function trimFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
