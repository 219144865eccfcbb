import { isRecord } from '@codeagent/artifact-schema/internal';
import { isCollection, isMap, isScalar, parseDocument } from 'yaml';

/** Result of splitting a SKILL.md text into frontmatter data and body. */
type SplitResult =
  | {
      ok: true;
      data: unknown;
      body: string;
      /** Text fields that were not valid YAML as written and were read as the text they were meant to be. */
      recovered: readonly string[];
    }
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
  const parsed = parseYaml(yamlText);
  if (!parsed.ok) return parsed;
  return { ok: true, data: parsed.data, body, recovered: parsed.recovered };
}

type YamlResult =
  | { ok: true; data: unknown; recovered: string[] }
  | { ok: false; code: 'invalid-yaml'; reason: string };

/**
 * Parses the frontmatter; when it is not valid YAML, retries once with the single-line text fields quoted
 * (`argument-hint: [pr-number] [priority]`, `description: Use when: x`), which is how peers read them.
 */
function parseYaml(yamlText: string): YamlResult {
  const first = parseOnce(yamlText);
  if (first.ok) return first;
  const quoted = quoteTextFields(yamlText);
  if (quoted.fields.length === 0) return first;
  const second = parseOnce(quoted.text);
  if (!second.ok) return first;
  return { ok: true, data: second.data, recovered: [...new Set([...quoted.fields, ...second.recovered])] };
}

function parseOnce(yamlText: string): YamlResult {
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (error) {
    // The parser can hit the stack limit on pathological nesting; that is bad input, not a crash.
    return { ok: false, code: 'invalid-yaml', reason: `YAML error: ${oneLine(String(error))}` };
  }
  const firstError = doc.errors[0];
  if (firstError) {
    return { ok: false, code: 'invalid-yaml', reason: `YAML error: ${oneLine(firstError.message)}` };
  }
  let data: unknown;
  try {
    // Alias expansion is bounded by the yaml package (billion-laughs guard).
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, code: 'invalid-yaml', reason: `YAML error: ${oneLine(String(error))}` };
  }
  const recovered: string[] = [];
  if (isRecord(data)) {
    const record = data;
    for (const key of TEXT_FIELDS) {
      const node = doc.get(key, true);
      // `name: 404` or `description: 2024` are text to a skill author: keep the scalar as written.
      if (isScalar(node) && (typeof node.value === 'number' || typeof node.value === 'boolean')) {
        if (typeof node.source === 'string') record[key] = node.source;
      } else if (key === 'argument-hint' && isCollection(node) && node.flow && node.range) {
        // `argument-hint: [file]` is a valid flow sequence, but the author meant the text `[file]`; a tag or an
        // anchor before it (`! {}`, `&a []`) is part of that text too, so the value is read from the key's colon.
        record[key] =
          valueSource(doc.contents, key, yamlText) ?? yamlText.slice(node.range[0], node.range[1]).trim();
        recovered.push(key);
      }
    }
  }
  return { ok: true, data, recovered };
}

/** The text of a top-level key's value as written (tag and anchor included), or `undefined`. */
function valueSource(contents: unknown, key: string, yamlText: string): string | undefined {
  if (!isMap(contents)) return undefined;
  for (const pair of contents.items) {
    if (!isScalar(pair.key) || pair.key.value !== key || !pair.key.range) continue;
    const value = pair.value;
    if (!isCollection(value) || !value.range) return undefined;
    const text = yamlText
      .slice(pair.key.range[1], value.range[1])
      .replace(/^[ \t]*:/, '')
      .trim();
    return text === '' ? undefined : text;
  }
  return undefined;
}

// Only the free-text fields: a name must be an identifier anyway, so quoting it would only hide the YAML error.
const TEXT_LINE = /^(description|argument-hint):[ \t]+(.*?)[ \t]*$/;

/** Quotes the values of single-line, unquoted top-level text fields (JSON strings are valid YAML). */
function quoteTextFields(yamlText: string): { text: string; fields: string[] } {
  const lines = yamlText.split('\n');
  const fields: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = TEXT_LINE.exec(lines[i] as string);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (value === '' || /^["'|>]/.test(value)) continue;
    // A value continued on indented lines is a multi-line scalar: leave it to the parser.
    if (/^[ \t]+\S/.test(lines[i + 1] ?? '')) continue;
    // Only the lines that are themselves the error, read as a plain string field, are rewritten (and reported).
    const alone = parseDocument(`${key}: ${value}`, { strict: true });
    if (alone.errors.length === 0 && typeof alone.get(key) === 'string') continue;
    lines[i] = `${key}: ${JSON.stringify(value)}`;
    fields.push(key);
  }
  return { text: lines.join('\n'), fields };
}

const TEXT_FIELDS = ['name', 'description', 'argument-hint', 'license', 'compatibility'] as const;

function oneLine(message: string): string {
  const line = message.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
