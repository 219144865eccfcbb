import type { DynamicToolUIPart, UIMessage } from 'ai';
import type { AgentUIChunk } from './mapper.js';
import type { CodeagentMessageMetadata } from './metadata.js';

/** The UI message type this adapter produces. */
export type AgentUIMessage = UIMessage<CodeagentMessageMetadata>;

type Part = AgentUIMessage['parts'][number];

function findTool(message: AgentUIMessage, toolCallId: string): DynamicToolUIPart | undefined {
  for (const part of message.parts)
    if (part.type === 'dynamic-tool' && part.toolCallId === toolCallId) return part;
  return undefined;
}

function replaceTool(message: AgentUIMessage, next: DynamicToolUIPart): void {
  const index = message.parts.findIndex((p) => p.type === 'dynamic-tool' && p.toolCallId === next.toolCallId);
  if (index === -1) message.parts.push(next);
  else message.parts[index] = next;
}

/**
 * Applies one chunk the adapter wrote to a server-side copy of the assistant message, in place, the way the AI
 * SDK's reader does for these chunk types (tests check both agree); other chunk types are ignored. Synchronous,
 * so the stored message is current the moment a chunk is queued.
 */
export function applyChunk(message: AgentUIMessage, chunk: AgentUIChunk): void {
  switch (chunk.type) {
    case 'start':
      if (chunk.messageId !== undefined) message.id = chunk.messageId;
      if (chunk.messageMetadata !== undefined)
        message.metadata = { ...message.metadata, ...chunk.messageMetadata };
      return;
    case 'finish':
    case 'message-metadata':
      if (chunk.messageMetadata !== undefined)
        message.metadata = { ...message.metadata, ...chunk.messageMetadata };
      return;
    case 'text-start':
      message.parts.push({ type: 'text', text: '', state: 'streaming' });
      return;
    case 'reasoning-start':
      message.parts.push({ type: 'reasoning', text: '', state: 'streaming' });
      return;
    case 'text-delta':
    case 'reasoning-delta': {
      const want = chunk.type === 'text-delta' ? 'text' : 'reasoning';
      const part = lastOf(message, want);
      if (part) part.text += chunk.delta;
      return;
    }
    case 'text-end':
    case 'reasoning-end': {
      const part = lastOf(message, chunk.type === 'text-end' ? 'text' : 'reasoning');
      if (part) part.state = 'done';
      return;
    }
    case 'tool-input-available':
      replaceTool(message, {
        type: 'dynamic-tool',
        toolCallId: chunk.toolCallId,
        toolName: chunk.toolName,
        state: 'input-available',
        input: chunk.input,
        ...(chunk.title !== undefined ? { title: chunk.title } : {}),
        ...(chunk.toolMetadata !== undefined ? { toolMetadata: chunk.toolMetadata } : {}),
      });
      return;
    case 'tool-approval-request': {
      const part = findTool(message, chunk.toolCallId);
      if (!part) return;
      replaceTool(message, {
        ...base(part),
        state: 'approval-requested',
        input: part.input,
        approval: { id: chunk.approvalId },
      });
      return;
    }
    case 'tool-output-available': {
      // Live output of a running call is display only: the stored copy keeps the call running until its result.
      if (chunk.preliminary === true) return;
      const part = findTool(message, chunk.toolCallId);
      if (!part) return;
      const meta = chunk.toolMetadata ?? part.toolMetadata;
      replaceTool(message, {
        ...base(part, meta),
        state: 'output-available',
        input: part.input,
        output: chunk.output,
        ...(part.approval?.approved === true
          ? { approval: part.approval as { id: string; approved: true } }
          : {}),
      });
      return;
    }
    case 'tool-output-error': {
      const part = findTool(message, chunk.toolCallId);
      if (!part) return;
      const meta = chunk.toolMetadata ?? part.toolMetadata;
      replaceTool(message, {
        ...base(part, meta),
        state: 'output-error',
        input: part.input,
        errorText: chunk.errorText,
        ...(part.approval?.approved === true
          ? { approval: part.approval as { id: string; approved: true } }
          : {}),
      });
      return;
    }
    case 'tool-output-denied': {
      const part = findTool(message, chunk.toolCallId);
      if (!part) return;
      // The AI SDK only flips the state and keeps whatever approval the part had.
      (part as { state: string }).state = 'output-denied';
      return;
    }
    default:
      return;
  }
}

function base(part: DynamicToolUIPart, meta = part.toolMetadata) {
  return {
    type: 'dynamic-tool' as const,
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    ...(part.title !== undefined ? { title: part.title } : {}),
    ...(meta !== undefined ? { toolMetadata: meta } : {}),
  };
}

function lastOf(
  message: AgentUIMessage,
  type: 'text' | 'reasoning',
): Extract<Part, { type: 'text' }> | undefined {
  for (let i = message.parts.length - 1; i >= 0; i--) {
    const part = message.parts[i];
    if (part?.type === type) return part as Extract<Part, { type: 'text' }>;
  }
  return undefined;
}
