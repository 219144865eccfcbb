import { isRecord } from '@codeagent/artifact-schema/internal';
import { assertNever } from './errors.js';
import type {
  ContentBlock,
  DiffCallView,
  DiffResultView,
  FileDiff,
  FileLocation,
  GenericCallView,
  GenericResultView,
  TerminalCallView,
  TerminalResultView,
  ToolCallKind,
  ToolCallView,
  ToolResultView,
} from './types.js';
import { TOOL_CALL_KINDS } from './types.js';

/** One handler per call card; the compiler requires all three. */
export interface CallViewHandlers<R> {
  /** Draws a generic call card. */
  generic: (view: GenericCallView) => R;
  /** Draws a terminal call card. */
  terminal: (view: TerminalCallView) => R;
  /** Draws a diff call card. */
  diff: (view: DiffCallView) => R;
}

/** One handler per result card; the compiler requires all three. */
export interface ResultViewHandlers<R> {
  /** Draws a generic result card. */
  generic: (view: GenericResultView) => R;
  /** Draws a terminal result card. */
  terminal: (view: TerminalResultView) => R;
  /** Draws a diff result card. */
  diff: (view: DiffResultView) => R;
}

/** Dispatches a call view to its card's handler; an unknown card throws `unreachable variant`. */
export function matchCallView<R>(view: ToolCallView, handlers: CallViewHandlers<R>): R {
  switch (view.card) {
    case 'generic':
      return handlers.generic(view);
    case 'terminal':
      return handlers.terminal(view);
    case 'diff':
      return handlers.diff(view);
    default:
      return assertNever(view, 'matchCallView');
  }
}

/** Dispatches a result view to its card's handler; an unknown card throws `unreachable variant`. */
export function matchResultView<R>(view: ToolResultView, handlers: ResultViewHandlers<R>): R {
  switch (view.card) {
    case 'generic':
      return handlers.generic(view);
    case 'terminal':
      return handlers.terminal(view);
    case 'diff':
      return handlers.diff(view);
    default:
      return assertNever(view, 'matchResultView');
  }
}

/** Optional fields: absent or `undefined` (tolerated from JavaScript producers) or the right type. */
const optString = (o: Record<string, unknown>, k: string): boolean =>
  o[k] === undefined || typeof o[k] === 'string';
const isKind = (x: unknown): x is ToolCallKind =>
  typeof x === 'string' && (TOOL_CALL_KINDS as readonly string[]).includes(x);

/** Whether `x` is a well-formed content block (`text`, or `image` with mime and base64). */
export function isContentBlock(x: unknown): x is ContentBlock {
  if (!isRecord(x)) return false;
  if (x.type === 'text') return typeof x.text === 'string';
  if (x.type === 'image') return typeof x.mime === 'string' && typeof x.b64 === 'string';
  return false;
}

/** Whether `x` is a well-formed file diff. */
export function isFileDiff(x: unknown): x is FileDiff {
  return (
    isRecord(x) &&
    typeof x.path === 'string' &&
    (x.oldText === null || typeof x.oldText === 'string') &&
    typeof x.newText === 'string'
  );
}

const isLocation = (x: unknown): x is FileLocation =>
  isRecord(x) &&
  typeof x.path === 'string' &&
  (x.line === undefined || (Number.isSafeInteger(x.line) && (x.line as number) >= 1));

const optArrayOf = (o: Record<string, unknown>, k: string, item: (x: unknown) => boolean): boolean =>
  o[k] === undefined || (Array.isArray(o[k]) && (o[k] as unknown[]).every(item));

/**
 * Whether `x` is a well-formed call view (tolerant of extra fields, strict on the fields the card
 * uses). Use it on views read back from storage or produced by third-party presenters.
 */
export function isToolCallView(x: unknown): x is ToolCallView {
  if (!isRecord(x) || typeof x.title !== 'string') return false;
  switch (x.card) {
    case 'generic':
      return (
        (x.kind === undefined || isKind(x.kind)) &&
        optArrayOf(x, 'content', isContentBlock) &&
        optArrayOf(x, 'locations', isLocation)
      );
    case 'terminal':
      return optString(x, 'description') && optString(x, 'cwd');
    case 'diff':
      return Array.isArray(x.diffs) && x.diffs.every(isFileDiff) && optArrayOf(x, 'locations', isLocation);
    default:
      return false;
  }
}

/** Whether `x` is a well-formed result view (tolerant of extra fields, strict on the card's fields). */
export function isToolResultView(x: unknown): x is ToolResultView {
  if (!isRecord(x) || !optString(x, 'title')) return false;
  switch (x.card) {
    case 'generic':
      return optArrayOf(x, 'content', isContentBlock);
    case 'terminal':
      return (
        optString(x, 'output') &&
        optString(x, 'signal') &&
        (x.exitCode === undefined || Number.isSafeInteger(x.exitCode))
      );
    case 'diff':
      return Array.isArray(x.diffs) && x.diffs.every(isFileDiff);
    default:
      return false;
  }
}
