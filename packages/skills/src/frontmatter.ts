import { isScalar, parseDocument } from 'yaml';

/** Result of splitting a SKILL.md text into frontmatter data and body. */
type SplitResult =
  | { ok: true; data: unknown; body: string }
  | {
      ok: false;
      code: 'missing-frontmatter' | 'unterminated-frontmatter' | 'invalid-yaml' | 'too-large';
      reason: string;
    };

/** Cap on the frontmatter block (characters): metadata is small, and YAML parse time grows with nesting. */
export const MAX_FRONTMATTER_CHARS = 16 * 1024;

const OPEN = /^---[ \t]*(?:\n|$)/;
const CLOSE = /^---[ \t]*$/m;

/** Normalises a decoded SKILL.md text: drops a leading BOM and turns CRLF / lone CR into LF. */
export function normaliseText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.replace(/\r\n?/g, '\n');
}

/** Splits normalised SKILL.md text into parsed YAML frontmatter and the body after it. */
export function splitFrontmatter(text: string): SplitResult {
  const open = OPEN.exec(text);
  if (!open) {
    return {
      ok: false,
      code: 'missing-frontmatter',
      reason: 'file does not start with a "---" frontmatter line',
    };
  }
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) {
    return {
      ok: false,
      code: 'unterminated-frontmatter',
      reason: 'no closing "---" line after the frontmatter',
    };
  }
  const yamlText = rest.slice(0, close.index);
  if (yamlText.length > MAX_FRONTMATTER_CHARS) {
    return {
      ok: false,
      code: 'too-large',
      reason: `frontmatter is ${yamlText.length} characters, over the ${MAX_FRONTMATTER_CHARS}-character cap`,
    };
  }
  let body = rest.slice(close.index + close[0].length);
  if (body.startsWith('\n')) body = body.slice(1);
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (error) {
    // The parser can hit the stack limit on pathological nesting; that is bad input, not a crash.
    return { ok: false, code: 'invalid-yaml', reason: `YAML error: ${oneLine(String(error))}` };
  }
  const first = doc.errors[0];
  if (first) {
    return { ok: false, code: 'invalid-yaml', reason: `YAML error: ${oneLine(first.message)}` };
  }
  let data: unknown;
  try {
    // Alias expansion is bounded by the yaml package (billion-laughs guard).
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, code: 'invalid-yaml', reason: `YAML error: ${oneLine(String(error))}` };
  }
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    // `name: 404` or `description: 2024` are text to a skill author: keep the scalar as written.
    const record = data as Record<string, unknown>;
    for (const key of TEXT_FIELDS) {
      const node = doc.get(key, true);
      if (isScalar(node) && (typeof node.value === 'number' || typeof node.value === 'boolean')) {
        if (typeof node.source === 'string') record[key] = node.source;
      }
    }
  }
  return { ok: true, data, body };
}

const TEXT_FIELDS = ['name', 'description', 'argument-hint', 'license', 'compatibility'] as const;

function oneLine(message: string): string {
  const line = message.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
