import { assertNever } from '@codeagent/artifact-schema/internal';
import type { AgentUIMessage } from '@codeagent/adapter-ai-sdk-ui';
import { readMessageMetadata, readToolPart, type ToolPartInfo } from '@codeagent/adapter-ai-sdk-ui/client';
import {
  memo,
  type ReactNode,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
} from 'react';
import {
  Markdown,
  measureElement,
  ToolCallCard,
  ToolResultView,
  useVirtualizer,
  type Virtualizer,
} from './vendor-kit.ts';

/** Transcripts longer than this many rows are virtualised (only what is on screen is in the DOM). */
export const VIRTUALIZE_AT = 200;

/** One row of the transcript: a user message, a text or reasoning part, a tool card, or a turn footer. */
export type Row =
  | { readonly key: string; readonly type: 'user'; readonly text: string }
  | { readonly key: string; readonly type: 'text'; readonly text: string }
  | { readonly key: string; readonly type: 'reasoning'; readonly text: string }
  | { readonly key: string; readonly type: 'tool'; readonly part: object; readonly size: string }
  | { readonly key: string; readonly type: 'footer'; readonly text: string };

/**
 * Splits markdown into blocks at blank lines outside code fences, so a long streamed answer re-renders only its
 * last block. (Constructs spanning blank lines, like loose lists, render as consecutive blocks.)
 */
export function markdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let fence: string | null = null;
  let start = 0;
  let pos = 0;
  while (pos <= text.length) {
    const end = text.indexOf('\n', pos);
    const lineEnd = end === -1 ? text.length : end;
    const line = text.slice(pos, lineEnd);
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === null) fence = marker[0] as string;
      else if (marker[0] === fence) fence = null;
    } else if (fence === null && line.trim() === '' && lineEnd > start) {
      const block = text.slice(start, lineEnd).replace(/\n+$/, '');
      if (block.trim() !== '') blocks.push(block);
      start = lineEnd + 1;
    }
    if (end === -1) break;
    pos = end + 1;
  }
  const rest = text.slice(start);
  if (rest.trim() !== '') blocks.push(rest);
  return blocks;
}

const infoCache = new WeakMap<object, ToolPartInfo | null>();

/** The validated reading of a tool part, once per part object. */
function toolInfo(part: object): ToolPartInfo | null {
  let info = infoCache.get(part);
  if (info === undefined) {
    info = readToolPart(part);
    infoCache.set(part, info);
  }
  return info;
}

// Rows of a message are computed once per message object: useChat keeps the objects of messages that did not change.
const rowCache = new WeakMap<object, Row[]>();

/** Flattens messages into rows, so a long turn with many cards virtualises card by card. */
export function flattenRows(messages: readonly AgentUIMessage[]): Row[] {
  const rows: Row[] = [];
  for (const message of messages) {
    let own = rowCache.get(message);
    if (!own) {
      own = messageRows(message);
      rowCache.set(message, own);
    }
    for (const row of own) rows.push(row);
  }
  return rows;
}

/** The artifact kind a tool part carries, read without validating it (only for height estimates). */
function artifactKindOf(part: object): string {
  const meta = (part as { toolMetadata?: { codeagent?: { artifact?: { kind?: unknown } | null } } })
    .toolMetadata;
  const kind = typeof meta === 'object' && meta !== null ? meta.codeagent?.artifact?.kind : undefined;
  return typeof kind === 'string' ? kind.slice(0, 40) : '';
}

function messageRows(message: AgentUIMessage): Row[] {
  const rows: Row[] = [];
  if (message.role === 'user') {
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    rows.push({ key: `${message.id}-u`, type: 'user', text });
    return rows;
  }
  message.parts.forEach((part, i) => {
    const key = `${message.id}-${i}`;
    if (part.type === 'text') {
      markdownBlocks(part.text).forEach((block, b) => {
        rows.push({ key: `${key}-${b}`, type: 'text', text: block });
      });
    } else if (part.type === 'reasoning') {
      if (part.text !== '') rows.push({ key, type: 'reasoning', text: part.text });
    } else if (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) {
      // Read (validated) only when the row is rendered: a virtualised transcript never reads off-screen parts.
      const id = (part as { toolCallId?: unknown }).toolCallId;
      rows.push({
        key: `${message.id}-${typeof id === 'string' ? id : i}`,
        type: 'tool',
        part,
        size: `tool:${artifactKindOf(part)}`,
      });
    }
  });
  const meta = readMessageMetadata(message);
  if (meta.stopReason !== undefined) {
    const usage = meta.usage
      ? ` · ${meta.usage.nTokens.toLocaleString('en')} / ${meta.usage.modelLimit.toLocaleString('en')} tokens (${Math.round(meta.usage.percentLeft)}% left) · in ${meta.usage.inputTokens} · out ${meta.usage.outputTokens}`
      : '';
    rows.push({ key: `${message.id}-f`, type: 'footer', text: `${meta.stopReason}${usage}` });
  }
  return rows;
}

/** Whether two rows render the same (text by value, tool rows by their part object). */
function sameRow(a: Row, b: Row): boolean {
  if (a === b) return true;
  if (a.type !== b.type || a.key !== b.key) return false;
  if (a.type === 'tool' && b.type === 'tool') return a.part === b.part;
  return (a as { text: string }).text === (b as { text: string }).text;
}

/**
 * Whether the card already draws everything the artifact would: a terminal card shows the command and its output
 * (a `code` or `text` artifact of the same run would repeat both), a diff card with applied hunks shows the
 * change (a `diff` artifact would draw it a second time), and a card titled with a command that has no output yet
 * shows all its `code` artifact holds.
 */
function drawnByCard(info: ToolPartInfo): boolean {
  const kind = info.artifact?.kind;
  if (info.result?.card === 'terminal') return kind === 'code' || kind === 'text';
  if (info.result?.card === 'diff')
    return kind === 'diff' && Array.isArray(info.result.diffs) && info.result.diffs.length > 0;
  // A command that produced no output yet (a background job just started): the card's title is the command, so the
  // artifact would only repeat it and hide the result's own words (which job started).
  if (kind === 'code' && info.result?.card === 'generic') {
    const payload = info.artifact?.payload as { text?: unknown; output?: unknown } | undefined;
    return payload?.text === info.call.title && payload?.output === '';
  }
  return false;
}

const RowView = memo(
  function RowView({ row }: { row: Row }): ReactNode {
    switch (row.type) {
      case 'user':
        return (
          <div className="row user" data-row="user">
            <div className="bubble">{row.text}</div>
          </div>
        );
      case 'text':
        return (
          <div className="row assistant" data-row="text">
            <Markdown text={row.text} />
          </div>
        );
      case 'reasoning':
        return (
          <div className="row reasoning" data-row="reasoning">
            <details>
              <summary>Thinking</summary>
              <p>{row.text}</p>
            </details>
          </div>
        );
      case 'tool': {
        const info = toolInfo(row.part);
        if (!info) return null;
        const hasResult =
          (info.state === 'output-available' || info.state === 'output-error') && !drawnByCard(info);
        return (
          <div
            className="row tool"
            data-row="tool"
            data-tool={info.toolName}
            data-state={info.state}
            data-kind={info.artifact?.kind ?? ''}
          >
            <ToolCallCard
              view={info.call}
              result={info.result ?? undefined}
              status={info.status}
              output={info.liveOutput ?? undefined}
              source={{ value: info.value, artifact: info.artifact }}
            >
              {hasResult ? (
                <ToolResultView
                  result={{
                    id: info.toolCallId,
                    name: info.toolName,
                    display: null,
                    value: info.value,
                    isError: info.status === 'failed',
                    artifact: info.artifact,
                    view: info.result,
                  }}
                />
              ) : null}
            </ToolCallCard>
          </div>
        );
      }
      case 'footer':
        return (
          <div className="row footer" data-row="footer">
            ── {row.text}
          </div>
        );
      default:
        return assertNever(row, 'row');
    }
  },
  (a, b) => sameRow(a.row, b.row),
);

/**
 * A virtualised row. While scrolling, a row inside the viewport renders its content in the same commit that mounts
 * it (inside the scroll's frame, so fast scrolling never shows a placeholder); an overscan row (just outside the viewport) mounts
 * as a placeholder of its known (measured or estimated) height and renders its content in a deferred,
 * interruptible render, so the scroll's task draws at most a screen of new rows. Once drawn, a row stays drawn.
 */
function DeferredRow({ row, height, visible }: { row: Row; height: number; visible: boolean }): ReactNode {
  const deferred = useDeferredValue(true, false);
  const drawn = useRef(false);
  if (deferred || visible) drawn.current = true;
  if (!drawn.current) return <div className="row-placeholder" style={{ height }} aria-hidden="true" />;
  return <RowView row={row} />;
}

/** What kind of row this is, for height estimates: the type, and for tools the artifact kind. */
const sizeClass = (row: Row): string => (row.type === 'tool' ? row.size : row.type);

/** First guesses before anything of a class was measured (px). */
const GUESS: Readonly<Record<string, number>> = { user: 56, text: 48, reasoning: 44, footer: 30 };

/**
 * Row heights: the virtualiser keeps each measured row's height (by key); for rows not measured yet this keeps the
 * running mean of the measured rows of the same class, so the estimated total stays close to the real one.
 */
function createSizeModel() {
  const sums = new Map<string, { total: number; n: number }>();
  const seen = new Map<string, number>();
  return {
    estimate(row: Row | undefined): number {
      if (!row) return 120;
      const c = sizeClass(row);
      const s = sums.get(c);
      if (s) return s.total / s.n;
      if (row.type === 'text') return Math.max(GUESS.text ?? 48, Math.ceil(row.text.length / 110) * 22 + 16);
      return GUESS[c] ?? 200;
    },
    record(row: Row | undefined, size: number): void {
      if (!row || size <= 0) return;
      const c = sizeClass(row);
      const s = sums.get(c) ?? { total: 0, n: 0 };
      const before = seen.get(row.key);
      s.total += size - (before ?? 0);
      if (before === undefined) s.n += 1;
      seen.set(row.key, size);
      sums.set(c, s);
    },
  };
}

/** The transcript's padding in px (app.css `.transcript`): where the first row starts inside the scroller. */
const TRANSCRIPT_PADDING = 16;

/** Props of {@link Transcript}. */
export interface TranscriptProps {
  readonly rows: readonly Row[];
  /** `auto`: virtualise long transcripts; `off`: render every row (the bench's baseline). */
  readonly mode: 'auto' | 'off';
  /** True while a response streams (keeps the view pinned to the bottom). */
  readonly streaming: boolean;
}

/** The scrolling transcript; sticks to the bottom while the user has not scrolled up. */
export function Transcript({ rows, mode, streaming }: TranscriptProps): ReactNode {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const virtual = mode === 'auto' && rows.length > VIRTUALIZE_AT;
  const sizes = useRef<ReturnType<typeof createSizeModel> | null>(null);
  sizes.current ??= createSizeModel();
  const model = sizes.current;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    enabled: virtual,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => model.estimate(rowsRef.current[i]),
    measureElement: (
      el: Element,
      entry: ResizeObserverEntry | undefined,
      v: Virtualizer<HTMLDivElement, Element>,
    ) => {
      const size = measureElement(el, entry, v);
      // Placeholders have the height they were given: only real content teaches the estimates.
      if (el.firstElementChild?.classList.contains('row-placeholder') !== true) {
        const index = Number((el as HTMLElement).dataset.index);
        model.record(rowsRef.current[index], size);
      }
      return size;
    },
    overscan: 4,
    // The rows start below the scroller's top padding: without it the range would miss a row whose end is
    // inside that padding (on screen, but counted as above the viewport).
    scrollMargin: TRANSCRIPT_PADDING,
    getItemKey: (i) => rows[i]?.key ?? i,
    // A scroll renders inside its own event (flushSync), before the frame paints: the rows that enter the viewport
    // are drawn in that frame. Positions are written to the DOM directly; React renders only when the range of
    // rows changes.
    useFlushSync: true,
    directDomUpdates: true,
  });
  // While scrolling, the rows inside the viewport (the range without overscan) are drawn at once, the others
  // deferred. A first render (and a resize) is all deferred: time-sliced, it paints placeholders first.
  const range = virtual && virtualizer.isScrolling ? virtualizer.range : null;
  const drawnRange = useRef<{ startIndex: number; endIndex: number } | null>(null);
  drawnRange.current = range === null ? null : { startIndex: range.startIndex, endIndex: range.endIndex };
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  // Rows drawn in this commit have real heights instead of estimates, which moves the rows around them: measure
  // them now (not at the resize observer's turn, after this frame's animation callbacks), and when that brings
  // rows drawn as placeholders into the viewport, draw them before the frame paints (an update in a layout effect
  // renders synchronously). Each pass measures what it drew, so this settles in a pass or two.
  useLayoutEffect(() => {
    const drawn = drawnRange.current;
    const el = scroller.current;
    if (!virtual || drawn === null || el === null || !virtualizer.isScrolling) return;
    for (const row of el.querySelectorAll(':scope > .transcript-inner > .virtual-row'))
      virtualizer.measureElement(row);
    virtualizer.getVirtualItems();
    const now = virtualizer.range;
    if (now !== null && (now.startIndex < drawn.startIndex || now.endIndex > drawn.endIndex)) redraw();
  });

  // Following the end stops only when the person scrolls up (a wheel, a touch, a key, the scrollbar), never
  // because the content grew faster than the view followed it (a long answer streaming, rows measured taller than
  // their estimate); it starts again once they are back at the bottom.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let intentAt = Number.NEGATIVE_INFINITY;
    let lastTop = el.scrollTop;
    const intent = () => {
      intentAt = performance.now();
    };
    const onScroll = () => {
      const top = el.scrollTop;
      if (el.scrollHeight - top - el.clientHeight < 80) pinned.current = true;
      else if (top < lastTop - 1 && performance.now() - intentAt < 1000) pinned.current = false;
      lastTop = top;
    };
    const inputs = ['wheel', 'touchmove', 'pointerdown', 'keydown'] as const;
    for (const name of inputs) el.addEventListener(name, intent, { passive: true });
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      for (const name of inputs) el.removeEventListener(name, intent);
      el.removeEventListener('scroll', onScroll);
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow new rows and streamed text
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !pinned.current) return;
    if (virtual) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    else el.scrollTop = el.scrollHeight;
  }, [rows, streaming, virtual]);

  return (
    <div
      className="transcript"
      ref={scroller}
      data-testid="transcript"
      data-virtual={virtual ? 'on' : 'off'}
      data-turns-done={rows.reduce((n, r) => (r.type === 'footer' ? n + 1 : n), 0)}
    >
      {virtual ? (
        <div className="transcript-inner" ref={virtualizer.containerRef}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="virtual-row"
              >
                <DeferredRow
                  row={row}
                  height={item.size}
                  visible={range !== null && item.index >= range.startIndex && item.index <= range.endIndex}
                />
              </div>
            );
          })}
        </div>
      ) : (
        rows.map((row) => <RowView key={row.key} row={row} />)
      )}
    </div>
  );
}
