import { parseDocument } from 'yaml';

/** Result of splitting a SKILL.md text into frontmatter data and body. */
type SplitResult =
  | { ok: true; data: unknown; body: string }
  | { ok: false; code: 'missing-frontmatter' | 'unterminated-frontmatter' | 'invalid-yaml'; reason: string };

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
  let body = rest.slice(close.index + close[0].length);
  if (body.startsWith('\n')) body = body.slice(1);
  const doc = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false, strict: true });
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
  return { ok: true, data, body };
}

function oneLine(message: string): string {
  const line = message.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
