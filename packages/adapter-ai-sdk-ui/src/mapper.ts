import type { AgentEvent, StreamResult, Usage } from '@codeagent/agent-core';
import type { FinishReason, UIMessageChunk } from 'ai';

type JSONObject = NonNullable<Extract<UIMessageChunk, { type: 'tool-input-available' }>['toolMetadata']>;
import {
  type CodeagentMessageMetadata,
  type CodeagentToolMetadata,
  type CodeagentUsageMetadata,
  type DenialSource,
  TOOL_METADATA_KEY,
} from './metadata.js';

/** A UI message chunk with the adapter's message metadata. */
export type AgentUIChunk = UIMessageChunk<CodeagentMessageMetadata>;

/** Options of {@link createEventMapper}. */
export interface EventMapperOptions {
  /** Prefix of the text and reasoning part ids (unique per assistant message); default `p`. */
  readonly idPrefix?: string;
  /** Why a call was denied, when the host knows (an approval it asked); consulted for error results. */
  readonly denialOf?: (toolCallId: string) => DenialSource | undefined;
}

/** Turns agent-core events into AI SDK UI message chunks, one event at a time. */
export interface EventMapper {
  /** The chunks for one event (`tick` and `compaction` give none; `end` closes open parts and finishes). */
  map(event: AgentEvent): AgentUIChunk[];
  /** Closes an open text or reasoning part (before an approval request ends a response). */
  closeParts(): AgentUIChunk[];
}

/** The UI finish reason for an agent-core stop reason. */
export function finishReasonFor(stopReason: StreamResult['stopReason']): FinishReason {
  switch (stopReason) {
    case 'completed':
      return 'stop';
    case 'truncated':
      return 'length';
    case 'filtered':
      return 'content-filter';
    case 'incomplete_tool_use':
      return 'tool-calls';
    case 'error':
      return 'error';
    case 'interrupted':
    case 'max_turns':
    case 'budget_exceeded':
      return 'other';
    default: {
      const never: never = stopReason;
      throw new Error(`unreachable stop reason ${String(never)}`);
    }
  }
}

/** The usage fields the message metadata carries. */
export function usageMetadata(usage: Usage | null): CodeagentUsageMetadata | null {
  if (usage === null) return null;
  return {
    nTokens: usage.nTokens,
    modelLimit: usage.modelLimit,
    percentLeft: usage.warningState.percentLeft,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costLast: usage.costLast,
  };
}

function toolMetadata(meta: CodeagentToolMetadata): JSONObject {
  // Views and artifacts are JSON data (they travel in sessions as JSON); the cast states that.
  return { [TOOL_METADATA_KEY]: meta as unknown as JSONObject };
}

/** True when a result value is the permission gate's denial text for this tool. */
function isGateDenial(name: string, value: string): boolean {
  return value.startsWith(`Permission denied for ${name} (`);
}

/**
 * Creates a stateful mapper from agent-core events to UI message chunks: text and reasoning deltas become
 * parts with start/delta/end, a tool request a dynamic tool part in `input-available` with the call card in
 * `toolMetadata.codeagent`, a result `output-available` (value as output; card and artifact in the metadata),
 * `output-error`, or `output-denied` for a denial; errors become `error` chunks, the end a `finish` with
 * usage and stop reason as message metadata.
 */
export function createEventMapper(options: EventMapperOptions = {}): EventMapper {
  const prefix = options.idPrefix ?? 'p';
  let counter = 0;
  let open: { type: 'text' | 'reasoning'; id: string } | null = null;
  const calls = new Map<string, CodeagentToolMetadata>();

  const closeParts = (): AgentUIChunk[] => {
    if (open === null) return [];
    const chunk: AgentUIChunk =
      open.type === 'text' ? { type: 'text-end', id: open.id } : { type: 'reasoning-end', id: open.id };
    open = null;
    return [chunk];
  };
  const ensure = (type: 'text' | 'reasoning'): AgentUIChunk[] => {
    if (open?.type === type) return [];
    const out = closeParts();
    const id = `${prefix}-${type}-${counter++}`;
    open = { type, id };
    out.push(type === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id });
    return out;
  };

  const map = (event: AgentEvent): AgentUIChunk[] => {
    switch (event.type) {
      case 'delta': {
        if (event.text === '') return [];
        const out = ensure('text');
        out.push({ type: 'text-delta', id: (open as { id: string }).id, delta: event.text });
        return out;
      }
      case 'thinking': {
        if (event.text === '') return [];
        const out = ensure('reasoning');
        out.push({ type: 'reasoning-delta', id: (open as { id: string }).id, delta: event.text });
        return out;
      }
      case 'tool-request': {
        const out = closeParts();
        const meta: CodeagentToolMetadata = { call: event.view, intent: event.intent };
        calls.set(event.id, meta);
        out.push({
          type: 'tool-input-available',
          toolCallId: event.id,
          toolName: event.name,
          input: event.arguments,
          dynamic: true,
          title: event.view.title,
          toolMetadata: toolMetadata(meta),
        });
        return out;
      }
      case 'tool-result': {
        const out = closeParts();
        const call = calls.get(event.id);
        calls.delete(event.id);
        const base: CodeagentToolMetadata = call ?? {
          call: { card: 'generic', title: event.name, kind: 'other' },
          intent: null,
        };
        const asked = options.denialOf?.(event.id);
        const denied: DenialSource | undefined =
          event.isError && isGateDenial(event.name, event.value) ? (asked ?? 'rule') : undefined;
        if (call === undefined) {
          // A result without a request (never from agent-core; tolerated): give the part its input first.
          out.push({
            type: 'tool-input-available',
            toolCallId: event.id,
            toolName: event.name,
            input: null,
            dynamic: true,
            title: base.call.title,
            toolMetadata: toolMetadata(base),
          });
        }
        if (
          denied === 'user' ||
          denied === 'timeout' ||
          denied === 'unknown-approval' ||
          denied === 'aborted'
        ) {
          // The user (or the lack of an answer) refused an approval we requested: the AI SDK's denied state.
          out.push({ type: 'tool-output-denied', toolCallId: event.id });
          return out;
        }
        const meta: CodeagentToolMetadata = {
          ...base,
          result: event.view,
          artifact: event.artifact,
          isError: event.isError,
          ...(denied ? { denied } : {}),
        };
        out.push(
          event.isError
            ? {
                type: 'tool-output-error',
                toolCallId: event.id,
                errorText: event.value,
                dynamic: true,
                toolMetadata: toolMetadata(meta),
              }
            : {
                type: 'tool-output-available',
                toolCallId: event.id,
                output: event.value,
                dynamic: true,
                toolMetadata: toolMetadata(meta),
              },
        );
        return out;
      }
      case 'error':
        // A recovered error (a retry, a note) is not a stream error: the turn goes on.
        if (event.recovered) return [];
        return [...closeParts(), { type: 'error', errorText: event.message }];
      case 'tool-output':
      case 'usage':
      case 'tick':
      case 'compaction':
        return [];
      case 'end': {
        const metadata: CodeagentMessageMetadata = {
          stopReason: event.result.stopReason,
          finishReason: event.result.finishReason,
          usage: usageMetadata(event.result.usage),
          awaitingApproval: false,
        };
        return [
          ...closeParts(),
          {
            type: 'finish',
            finishReason: finishReasonFor(event.result.stopReason),
            messageMetadata: metadata,
          },
        ];
      }
      default: {
        const never: never = event;
        throw new Error(`unreachable agent event ${JSON.stringify(never)}`);
      }
    }
  };

  return { map, closeParts };
}
