import {
  assertNever,
  type ContentBlock,
  type FileDiff,
  type FileLocation,
  type ToolCallView,
  type ToolResultView,
} from '@codeagent/render-intent';
import { paint, prefixBlock, truncateToWidth, visibleWidth } from './ansi.js';
import { imagePlaceholder, renderableArtifactLines } from './artifact.js';
import { renderDiffLines } from './diff.js';
import type { ResolvedRenderOptions } from './options.js';
import { safeInline, safeJson, safeLines, safeText, toText, trimFinalNewline } from './text.js';

/**
 * What a host has for a finished call besides its view: a `ToolResult` (artifact under `extra`) or a
 * tool-result event (`artifact` and `value`) both fit; every field is untrusted and validated before use.
 */
export interface ToolResultData {
  /** The event's artifact (any version; only a valid v1 artifact of a supported kind is drawn). */
  readonly artifact?: unknown;
  /** A `ToolResult`'s `extra`, where `extra.codeagent.artifact` lives. */
  readonly extra?: unknown;
  /** The portable text (the last fallback of every UI). */
  readonly value?: unknown;
}

const INDENT = '  ';
/** Indents entries, which may be multi-line blocks; empty lines stay empty. */
const indent = (lines: readonly string[], prefix = INDENT): string[] =>
  lines.map((l) => prefixBlock(l, prefix));

function header(glyph: string, title: unknown, options: ResolvedRenderOptions, tag?: string): string {
  const { color, width } = options;
  const tagText = tag ? ` ${truncateToWidth(tag, Math.floor(width / 3))}` : '';
  const room = Math.max(1, width - 2 - visibleWidth(tagText));
  // Titles never keep the model's or a tool's SGR (SGR 8 conceals, colours can match the background).
  const text = truncateToWidth(safeInline(title, false), room);
  return `${paint(color, glyph, 'cyan')} ${paint(color, text, 'bold')}${paint(color, tagText, 'dim')}`;
}

function contentLines(content: unknown, color: boolean): string[] {
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const block of content as readonly ContentBlock[]) {
    if (typeof block !== 'object' || block === null) continue;
    if (block.type === 'text') out.push(safeText(trimFinalNewline(toText(block.text)), color));
    else if (block.type === 'image') out.push(imagePlaceholder(block.mime, block.b64, color));
  }
  return out;
}

function locationLines(locations: unknown, options: ResolvedRenderOptions): string[] {
  if (!Array.isArray(locations)) return [];
  return (locations as readonly FileLocation[])
    .filter((loc) => typeof loc === 'object' && loc !== null)
    .map((loc) => {
      const line = typeof loc.line === 'number' && Number.isFinite(loc.line) ? `:${loc.line}` : '';
      return paint(
        options.color,
        truncateToWidth(`↳ ${safeInline(loc.path, false)}${line}`, options.width - 2),
        'dim',
      );
    });
}

function diffLines(diffs: unknown, color: boolean, keepSgr = color): string[] {
  if (!Array.isArray(diffs)) return [];
  return (diffs as readonly FileDiff[])
    .filter((d) => typeof d === 'object' && d !== null)
    .flatMap((d) =>
      renderDiffLines({ path: d.path, oldText: d.oldText, newText: d.newText }, color, keepSgr),
    );
}

/**
 * Renders a tool call card (`generic`, `terminal` or `diff`) as terminal lines. Everything in a call card comes
 * from the model's arguments, so no SGR from it is kept (only the renderer's own styles).
 */
export function toolCallLines(view: ToolCallView, options: ResolvedRenderOptions): string[] {
  const { color } = options;
  switch (view.card) {
    case 'generic': {
      const kind = typeof view.kind === 'string' ? `[${safeInline(view.kind, false)}]` : undefined;
      const out = [header('●', view.title, options, kind), ...indent(locationLines(view.locations, options))];
      const content = contentLines(view.content, false);
      if (content.length > 0) out.push(...indent(content));
      else if (view.rawInput !== undefined) {
        const raw = truncateToWidth(safeInline(safeJson(view.rawInput), false), options.width - 2);
        out.push(INDENT + paint(color, raw, 'dim'));
      }
      return out;
    }
    case 'terminal': {
      const out = [header('$', view.title, options)];
      if (view.description !== undefined)
        out.push(...indent(safeLines(view.description, false).map((l) => paint(color, l, 'dim'))));
      if (view.cwd !== undefined)
        out.push(
          INDENT +
            paint(color, truncateToWidth(`in ${safeInline(view.cwd, false)}`, options.width - 2), 'dim'),
        );
      return out;
    }
    case 'diff':
      return [
        header('✎', view.title, options),
        ...indent(locationLines(view.locations, options)),
        ...indent(diffLines(view.diffs, color, false)),
      ];
    default:
      return assertNever(view, 'terminal card');
  }
}

/**
 * Lines arrays holding one line that already passed the strict output rules (a terminal card's body, which can be
 * the size of a whole tool output): the frame's final check skips that line instead of scanning it again.
 */
export const checkedLine = new WeakMap<readonly string[], string>();

/** The exit pill of a terminal result: ` exit 0 ` green, non-zero red, a signal yellow; `[exit 0]` without colour. */
export function exitPill(exitCode: unknown, signal: unknown, color: boolean): string | null {
  let label: string;
  let style: 'pillOk' | 'pillFail' | 'pillWarn';
  if (typeof signal === 'string' && signal !== '') {
    label = `signal ${safeInline(signal, false)}`;
    style = 'pillWarn';
  } else if (typeof exitCode === 'number' && Number.isFinite(exitCode)) {
    label = `exit ${exitCode}`;
    style = exitCode === 0 ? 'pillOk' : 'pillFail';
  } else {
    return null;
  }
  return color ? paint(true, ` ${label} `, style) : `[${label}]`;
}

/** Renders a tool result card; a `generic` card prefers a valid artifact, then its content, then the value. */
export function toolResultLines(
  view: ToolResultView,
  data: ToolResultData,
  options: ResolvedRenderOptions,
): string[] {
  const { color } = options;
  const title = view.title === undefined ? [] : [header('⎿', view.title, options)];
  switch (view.card) {
    case 'generic': {
      let body = renderableArtifactLines(data, options) ?? [];
      if (body.length === 0) body = contentLines(view.content, color);
      if (body.length === 0) body = [safeText(trimFinalNewline(toText(data.value)), color)];
      return [...title, ...indent(body)];
    }
    case 'terminal': {
      const output = view.output ?? data.value;
      const text = trimFinalNewline(toText(output));
      const gutter = paint(color, '│ ', 'dim');
      const body = text === '' ? '' : prefixBlock(safeText(text, color), INDENT + gutter, false);
      const pill = exitPill(view.exitCode, view.signal, color);
      const lines = [...title];
      if (body !== '') lines.push(body);
      if (pill) lines.push(`${INDENT}${paint(color, '└ ', 'dim')}${pill}`);
      // The body passed the strict rules in `safeText`; the gutter and colour resets added since are strict SGR.
      if (body !== '') checkedLine.set(lines, body);
      return lines;
    }
    case 'diff':
      return [...title, ...indent(diffLines(view.diffs, color))];
    default:
      return assertNever(view, 'terminal card');
  }
}
