import { type ToolResult, toolResult } from '@codeagent/artifact-schema';
import { capHeadTail, cleanServerText } from './text.js';
import { isRecord } from '@codeagent/artifact-schema/internal';

/** Limits applied when an MCP result becomes a tool result (every field is untrusted server output). */
export interface McpResultLimits {
  /** Most characters of the model-facing value (head and tail kept); default 30,000, like Bash output. */
  readonly maxValueChars?: number;
  /** Most characters of an artifact's text (code, JSON); default 1,000,000. */
  readonly maxArtifactChars?: number;
  /** Most rows of a table artifact; default 5,000. */
  readonly maxRows?: number;
  /** Most base64 characters of all images of one result; default 10,000,000 (about 7.5 MB). */
  readonly maxImageChars?: number;
}

/** Default {@link McpResultLimits.maxValueChars}. */
export const DEFAULT_MAX_VALUE_CHARS = 30_000;

const DEFAULTS = {
  maxValueChars: DEFAULT_MAX_VALUE_CHARS,
  maxArtifactChars: 1_000_000,
  maxRows: 5000,
  maxImageChars: 10_000_000,
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type Rec = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The rows of structured content that is an array of records, or an object whose only value is one. */
function tableRows(sc: unknown): Rec[] | undefined {
  const rows = Array.isArray(sc)
    ? sc
    : isRecord(sc) && Object.keys(sc).length === 1
      ? Object.values(sc)[0]
      : undefined;
  if (!Array.isArray(rows) || rows.length === 0 || !rows.every(isRecord)) return undefined;
  return rows;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'null';
  } catch {
    return '[structured content that cannot be shown as JSON]';
  }
}

function langOf(mime: string | undefined, uri: string): string | undefined {
  if (mime === 'application/json' || uri.endsWith('.json')) return 'json';
  if (mime?.startsWith('text/')) {
    const sub = mime.slice(5).split(';')[0];
    return sub === 'plain' ? undefined : sub;
  }
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(uri)?.[1];
  return ext?.toLowerCase();
}

/** Where the result came from: the server and tool names (already cleaned), for titles. */
export interface McpResultSource {
  /** The server's configured name. */
  readonly server: string;
  /** The tool's name on that server. */
  readonly tool: string;
}

/**
 * Maps an MCP `CallToolResult` to the three channels: text blocks are the value; one image or more gives an `image`
 * artifact; structured content gives a `table` (an array of records) or a `code` JSON artifact, with the text blocks
 * as the value; an embedded text resource gives a `code` artifact named by its URI; blobs, audio and resource links
 * become text lines with the URI and MIME type; `isError` makes the status `error`. Every string is cleaned of
 * escapes and controls, and every size is capped. Never throws: a malformed result gives an error result.
 */
export function mcpResultToToolResult(
  result: unknown,
  source: McpResultSource,
  limits: McpResultLimits = {},
): ToolResult {
  const title = `${source.server} · ${source.tool}`;
  try {
    return mapResult(result, title, { ...DEFAULTS, ...limits });
  } catch {
    // A payload the artifact protocol refuses (not JSON data): the portable answer is an error, not a crash.
    return errorResult(`MCP tool ${title} returned a result that cannot be shown`, title);
  }
}

function mapResult(result: unknown, title: string, l: Required<McpResultLimits>): ToolResult {
  if (!isRecord(result)) return errorResult(`MCP tool ${title} returned a malformed result`, title);
  const content = Array.isArray(result.content) ? result.content : [];
  const texts: string[] = [];
  const images: { mime: string; b64: string }[] = [];
  let imageChars = 0;
  let code: { text: string; filename: string; lang?: string } | undefined;
  for (const block of content) {
    if (!isRecord(block)) continue;
    const type = str(block.type);
    if (type === 'text') {
      texts.push(cleanServerText(str(block.text) ?? ''));
    } else if (type === 'image') {
      const mime = cleanServerText(str(block.mimeType) ?? 'application/octet-stream');
      const b64 = str(block.data) ?? '';
      if (b64 !== '' && imageChars + b64.length <= l.maxImageChars && BASE64.test(b64)) {
        images.push({ mime, b64 });
        imageChars += b64.length;
        texts.push(`[image ${mime}, ${Math.floor((b64.length * 3) / 4)} bytes]`);
      } else texts.push(`[image ${mime} not shown: invalid or over the size limit]`);
    } else if (type === 'audio') {
      const mime = cleanServerText(str(block.mimeType) ?? 'audio');
      texts.push(`[audio ${mime}, ${Math.floor(((str(block.data) ?? '').length * 3) / 4)} bytes]`);
    } else if (type === 'resource_link') {
      const uri = cleanServerText(str(block.uri) ?? '');
      const mime = str(block.mimeType);
      const name = str(block.name);
      texts.push(
        `[resource link ${uri}${mime ? ` (${cleanServerText(mime)})` : ''}${name ? ` ${cleanServerText(name)}` : ''}]`,
      );
    } else if (type === 'resource' && isRecord(block.resource)) {
      const r = block.resource;
      const uri = cleanServerText(str(r.uri) ?? '');
      const mime = str(r.mimeType);
      const text = str(r.text);
      if (text !== undefined) {
        const clean = cleanServerText(text);
        texts.push(`[resource ${uri}]\n${clean}`);
        if (!code) {
          const lang = langOf(mime, uri);
          code = { text: capHeadTail(clean, l.maxArtifactChars), filename: uri, ...(lang ? { lang } : {}) };
        }
      } else {
        const blob = str(r.blob) ?? '';
        texts.push(
          `[resource ${uri}${mime ? ` (${cleanServerText(mime)})` : ''}, ${Math.floor((blob.length * 3) / 4)} bytes]`,
        );
      }
    } else {
      texts.push(`[unsupported MCP content: ${cleanServerText(type ?? typeof block)}]`);
    }
  }
  const sc = result.structuredContent;
  const hasStructured = sc !== undefined && sc !== null;
  let value = texts.join('\n');
  if (value === '' && hasStructured) value = json(sc);
  value = capHeadTail(value, l.maxValueChars);
  const isError = result.isError === true;
  const status = isError ? 'error' : 'success';

  if (hasStructured) {
    const rows = tableRows(sc);
    if (rows)
      return toolResult(value, { kind: 'table', status, title, payload: { df: rows.slice(0, l.maxRows) } });
    return toolResult(value, {
      kind: 'code',
      status,
      title,
      payload: { text: capHeadTail(json(sc), l.maxArtifactChars), lang: 'json' },
    });
  }
  if (images.length > 0) return toolResult(value, { kind: 'image', status, title, payload: { images } });
  if (code) return toolResult(value, { kind: 'code', status, title, payload: code });
  if (isError) return errorResult(value === '' ? `MCP tool ${title} failed` : value, title);
  return toolResult(value, {
    kind: 'text',
    title,
    payload: { text: capHeadTail(value, l.maxArtifactChars) },
  });
}

/** An error result (kind `error`) with the message as the value. */
export function errorResult(message: string, title: string | null = null): ToolResult {
  return toolResult(message, { kind: 'error', title, payload: { message } });
}
