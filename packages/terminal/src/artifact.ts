import { toolResultArtifact, toolResultValue } from '@codeagent/artifact-schema';
import { assertNever } from '@codeagent/render-intent';
import { paint } from './ansi.js';
import { renderDiffLines } from './diff.js';
import { detectLanguage, highlight } from './highlight.js';
import type { ResolvedRenderOptions } from './options.js';
import { renderTableLines } from './table.js';
import { safeInline, safeLines, safeText, sanitize, toText, trimFinalNewline } from './text.js';
import { isRecord } from '@codeagent/artifact-schema/internal';

/** Artifact kinds this package draws; any other kind falls back to the portable value. */
export const SUPPORTED_ARTIFACT_KINDS = ['text', 'table', 'image', 'code', 'diff', 'error'] as const;

/** One of {@link SUPPORTED_ARTIFACT_KINDS}. */
export type SupportedArtifactKind = (typeof SUPPORTED_ARTIFACT_KINDS)[number];

function isSupportedKind(kind: string): kind is SupportedArtifactKind {
  return (SUPPORTED_ARTIFACT_KINDS as readonly string[]).includes(kind);
}

/** Decoded byte size of base64 text (whitespace ignored, `=` padding subtracted). */
export function base64ByteLength(b64: string): number {
  let len = 0;
  let pad = 0;
  for (let i = 0; i < b64.length; i++) {
    const c = b64.charCodeAt(i);
    if (c === 0x3d) pad++;
    else if (c > 0x20) {
      len += 1 + pad;
      pad = 0;
    }
  }
  return Math.floor((len * 3) / 4);
}

/** Human-readable byte count: `512 B`, `1.5 KB`, `2.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Placeholder line for an image: `[image image/png, 1.2 KB]`. */
export function imagePlaceholder(mime: unknown, b64: unknown, color: boolean, label = 'image'): string {
  const type = typeof mime === 'string' && mime !== '' ? safeInline(mime, color) : 'unknown type';
  const size = typeof b64 === 'string' ? formatBytes(base64ByteLength(b64)) : 'no data';
  return paint(color, `[${label} ${type}, ${size}]`, 'magenta');
}

/** Untrusted text as one multi-line block (large outputs stay one string, not one array entry per line). */
function textBlock(value: unknown, color: boolean): string[] {
  return [safeText(trimFinalNewline(toText(value)), color)];
}

function textLines(value: unknown, color: boolean): string[] {
  return safeLines(trimFinalNewline(toText(value)), color);
}

function outputSection(output: unknown, color: boolean): string[] {
  if (output === undefined || output === null || output === '') return [];
  return [paint(color, 'output:', 'dim'), ...textBlock(output, color)];
}

function renderCodeLines(payload: Record<string, unknown>, color: boolean): string[] {
  const source = trimFinalNewline(sanitize(payload.text, color));
  const lang = detectLanguage(payload.lang, payload.filename);
  // Source already coloured by the tool keeps its own colours instead of being re-highlighted.
  const body = source.includes('\u001b') ? source : highlight(source, lang, color);
  const lines = safeLines(body, color);
  const digits = String(lines.length).length;
  const label = [
    typeof payload.filename === 'string' ? safeInline(payload.filename, color) : null,
    typeof payload.lang === 'string' && payload.lang !== '' ? `(${safeInline(payload.lang, color)})` : null,
  ].filter((x): x is string => x !== null);
  const out = label.length > 0 ? [paint(color, label.join(' '), 'dim')] : [];
  lines.forEach((line, i) => {
    out.push(paint(color, `${String(i + 1).padStart(digits)} │ `, 'gray') + line);
  });
  return [...out, ...outputSection(payload.output, color)];
}

function renderKnownKind(
  kind: SupportedArtifactKind,
  payload: unknown,
  options: ResolvedRenderOptions,
): string[] | null {
  const { color } = options;
  const p = isRecord(payload) ? payload : null;
  switch (kind) {
    case 'text':
      return p && 'text' in p ? textBlock(p.text, color) : null;
    case 'table':
      return renderTableLines(payload, options);
    case 'image': {
      if (!p || !Array.isArray(p.images)) return null;
      const images = p.images.map((img: unknown) =>
        isRecord(img)
          ? imagePlaceholder(img.mime, img.b64, color)
          : imagePlaceholder(undefined, undefined, color),
      );
      return [
        ...(images.length ? images : [paint(color, '[no image]', 'dim')]),
        ...outputSection(p.output, color),
      ];
    }
    case 'code':
      return p && 'text' in p ? renderCodeLines(p, color) : null;
    case 'diff':
      return p && ('old' in p || 'new' in p)
        ? renderDiffLines({ path: p.path, oldText: p.old ?? '', newText: p.new ?? '' }, color)
        : null;
    case 'error': {
      if (!p) return null;
      const message = textLines(p.message ?? 'error', color);
      const [first = '', ...rest] = message;
      return [
        paint(color, '✖ ', 'red', 'bold') + paint(color, first, 'red'),
        ...rest.map((l) => `  ${l}`),
        ...(p.detail === undefined || p.detail === null
          ? []
          : textLines(p.detail, color).map((l) => `  ${paint(color, l, 'dim')}`)),
      ];
    }
    default:
      return assertNever(kind, 'terminal artifact kind');
  }
}

/** A validated v1 artifact as far as this renderer reads it. */
interface ArtifactLike {
  readonly kind: string;
  readonly status: string;
  readonly title: string | null;
  readonly payload: unknown;
}

function statusGlyph(status: string, color: boolean): string {
  if (status === 'success') return paint(color, '✓', 'green');
  if (status === 'error') return paint(color, '✖', 'red');
  return paint(color, '•', 'yellow');
}

/**
 * Lines for the artifact of a tool result when it is a valid v1 artifact of a supported kind with a usable
 * payload; `null` otherwise (unknown kinds, other versions, malformed payloads).
 */
export function renderableArtifactLines(
  source: unknown,
  options: ResolvedRenderOptions,
  withTitle = true,
): string[] | null {
  const { color } = options;
  const artifact = toolResultArtifact(source) as ArtifactLike | null;
  if (!artifact || !isSupportedKind(artifact.kind)) return null;
  const body = renderKnownKind(artifact.kind, artifact.payload, options);
  if (!body) return null;
  if (!withTitle || artifact.title === null || artifact.title === '') return body;
  const header = `${statusGlyph(artifact.status, color)} ${paint(color, safeInline(artifact.title, color), 'bold')}`;
  return [header, ...body];
}

/** Body lines for a tool result: the renderable artifact, else the portable value (the documented fallback). */
export function artifactLines(source: unknown, options: ResolvedRenderOptions): string[] {
  return renderableArtifactLines(source, options) ?? valueLines(source, options);
}

function valueLines(source: unknown, options: ResolvedRenderOptions): string[] {
  const value = toolResultValue(source, '');
  if (value !== '') return textBlock(value, options.color);
  // Any valid version, so a future artifact with no value still says what it was.
  const artifact = toolResultArtifact(source, { version: null }) as ArtifactLike | null;
  if (artifact) {
    const note = `(${safeInline(artifact.kind, options.color)} artifact: no text fallback)`;
    return [paint(options.color, note, 'dim')];
  }
  if (typeof source === 'string') return textBlock(source, options.color);
  return [];
}
