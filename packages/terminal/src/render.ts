import { toolResultValue } from '@codeagent/artifact-schema';
import type { ToolCallView, ToolResultView } from '@codeagent/render-intent';
import { artifactLines } from './artifact.js';
import { checkedLine, type ToolResultData, toolCallLines, toolResultLines } from './cards.js';
import { enforceStrictOutput } from './checker.js';
import { type ResolvedRenderOptions, resolveRenderOptions, type TerminalRenderOptions } from './options.js';
import { safeText, trimFinalNewline } from './text.js';

/** Everything a host has about one tool call, for {@link renderToolCard}. */
export interface ToolCardData extends ToolResultData {
  /** The call's view (from `onToolRequest`). */
  readonly call: ToolCallView;
  /** The result's view, once the result came (absent while the call runs). */
  readonly result?: ToolResultView;
}

/**
 * Joins a frame and applies the strict rules to it: the last line of defence. A line the card already checked
 * ({@link checkedLine}) is not scanned again; the check never spans lines (nothing it keeps contains a newline),
 * so checking line by line gives the same frame as checking the joined text.
 */
function finish(lines: readonly string[]): string {
  const checked = checkedLine.get(lines);
  if (checked === undefined) return enforceStrictOutput(lines.join('\n'));
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (i > 0) out += '\n';
    out += line === checked ? line : enforceStrictOutput(line);
  }
  return out;
}

function artifactFrame(source: unknown, options: ResolvedRenderOptions): string {
  try {
    return finish(artifactLines(source, options));
  } catch {
    // A renderer bug must not blank the result: show the portable value instead.
    return finish([safeText(trimFinalNewline(toolResultValue(source, '')), options.color)]);
  }
}

/**
 * Renders a tool result's artifact (a `ToolResult`, a tool-result event or a bare v1 artifact) as terminal
 * text; unknown kinds, other versions and malformed payloads fall back to the portable value.
 */
export function renderArtifact(source: unknown, options: TerminalRenderOptions = {}): string {
  return artifactFrame(source, resolveRenderOptions(options));
}

/** Renders a tool call card (`ToolCallView`) as terminal text. */
export function renderToolCall(view: ToolCallView, options: TerminalRenderOptions = {}): string {
  return finish(toolCallLines(view, resolveRenderOptions(options)));
}

/** Renders a tool result card (`ToolResultView`) with the result's artifact and value as terminal text. */
export function renderToolResult(
  view: ToolResultView,
  data: ToolResultData = {},
  options: TerminalRenderOptions = {},
): string {
  return finish(toolResultLines(view, data, resolveRenderOptions(options)));
}

/** Renders a whole tool card: the call, then its result (or a `running…` line while there is none). */
export function renderToolCard(card: ToolCardData, options: TerminalRenderOptions = {}): string {
  const resolved = resolveRenderOptions(options);
  const lines = toolCallLines(card.call, resolved);
  if (card.result) {
    const result = toolResultLines(card.result, card, resolved);
    lines.push(...result);
    const checked = checkedLine.get(result);
    if (checked !== undefined) checkedLine.set(lines, checked);
  } else {
    lines.push(resolved.color ? '  \u001b[2m… running\u001b[0m' : '  … running');
  }
  return finish(lines);
}

/** A renderer with colour and width decided once (see {@link createTerminalRenderer}). */
export interface TerminalRenderer {
  /** Whether this renderer emits SGR colour. */
  readonly color: boolean;
  /** Frame width in columns. */
  readonly width: number;
  /** {@link renderArtifact} with this renderer's settings. */
  renderArtifact(source: unknown): string;
  /** {@link renderToolCall} with this renderer's settings. */
  renderToolCall(view: ToolCallView): string;
  /** {@link renderToolResult} with this renderer's settings. */
  renderToolResult(view: ToolResultView, data?: ToolResultData): string;
  /** {@link renderToolCard} with this renderer's settings. */
  renderToolCard(card: ToolCardData): string;
}

/**
 * Creates a renderer whose colour follows the rules of `resolveColor` (explicit option, then `NO_COLOR`,
 * then `FORCE_COLOR`, then `isTTY`) and whose width defaults to the terminal's.
 */
export function createTerminalRenderer(options: TerminalRenderOptions = {}): TerminalRenderer {
  const resolved = resolveRenderOptions(options);
  const fixed: TerminalRenderOptions = {
    color: resolved.color,
    width: resolved.width,
    maxTableRows: resolved.maxTableRows,
  };
  return {
    color: resolved.color,
    width: resolved.width,
    renderArtifact: (source) => artifactFrame(source, resolved),
    renderToolCall: (view) => renderToolCall(view, fixed),
    renderToolResult: (view, data) => renderToolResult(view, data ?? {}, fixed),
    renderToolCard: (card) => renderToolCard(card, fixed),
  };
}
