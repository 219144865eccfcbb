import type { AgentUIMessage } from '@codeagent/adapter-ai-sdk-ui';
import { readMessageMetadata, readToolPart, type ToolPartInfo } from '@codeagent/adapter-ai-sdk-ui/client';
import { Markdown, ToolCallCard, ToolResultView } from '@codeagent/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, type ReactNode, useEffect, useLayoutEffect, useRef } from 'react';

/** Transcripts longer than this many rows are virtualised (only what is on screen is in the DOM). */
export const VIRTUALIZE_AT = 200;

/** One row of the transcript: a user message, a text or reasoning part, a tool card, or a turn footer. */
export type Row =
  | { readonly key: string; readonly type: 'user'; readonly text: string }
  | { readonly key: string; readonly type: 'text'; readonly text: string }
  | { readonly key: string; readonly type: 'reasoning'; readonly text: string }
  | { readonly key: string; readonly type: 'tool'; readonly info: ToolPartInfo; readonly part: unknown }
  | { readonly key: string; readonly type: 'footer'; readonly text: string };

/** Flattens messages into rows, so a long turn with many cards virtualises card by card. */
export function flattenRows(messages: readonly AgentUIMessage[]): Row[] {
  const rows: Row[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
      rows.push({ key: `${message.id}-u`, type: 'user', text });
      continue;
    }
    message.parts.forEach((part, i) => {
      const key = `${message.id}-${i}`;
      if (part.type === 'text') {
        if (part.text !== '') rows.push({ key, type: 'text', text: part.text });
      } else if (part.type === 'reasoning') {
        if (part.text !== '') rows.push({ key, type: 'reasoning', text: part.text });
      } else {
        const info = readToolPart(part);
        if (info) rows.push({ key: `${message.id}-${info.toolCallId}`, type: 'tool', info, part });
      }
    });
    const meta = readMessageMetadata(message);
    if (meta.stopReason !== undefined) {
      const usage = meta.usage
        ? ` · ${meta.usage.nTokens.toLocaleString('en')} / ${meta.usage.modelLimit.toLocaleString('en')} tokens (${Math.round(meta.usage.percentLeft)}% left) · in ${meta.usage.inputTokens} · out ${meta.usage.outputTokens}`
        : '';
      rows.push({ key: `${message.id}-f`, type: 'footer', text: `${meta.stopReason}${usage}` });
    }
  }
  return rows;
}

const RowView = memo(function RowView({ row }: { row: Row }): ReactNode {
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
      const { info } = row;
      const hasResult = info.state === 'output-available' || info.state === 'output-error';
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
    default: {
      const never: never = row;
      throw new Error(`unreachable row ${JSON.stringify(never)}`);
    }
  }
});

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
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => 140,
    overscan: 6,
    getItemKey: (i) => rows[i]?.key ?? i,
  });

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow new rows and streamed text
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !pinned.current) return;
    if (virtual) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    else el.scrollTop = el.scrollHeight;
  }, [rows, streaming, virtual]);

  return (
    <div className="transcript" ref={scroller} data-testid="transcript" data-virtual={virtual ? 'on' : 'off'}>
      {virtual ? (
        <div className="transcript-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="virtual-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <RowView row={row} />
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
