import { isRecord as isRec } from '@codeagent/artifact-schema/internal';
import type { AgentUIChunk } from '@codeagent/adapter-ai-sdk-ui';
import type { SessionRecord, SessionStore } from '@codeagent/session-store';

/*
 * A turn that runs on another instance, seen from this one. The running instance stores the UI history whenever it
 * changes (an approval request, a tool output, the end) and every write is announced (PostgreSQL NOTIFY); this
 * instance turns each stored change of the turn's assistant message into UI message chunks for its own page, and
 * finishes the response when the turn parks at approvals again or ends.
 */

type Rec = Record<string, unknown>;

/** The approval answers a client-sent assistant message carries (untrusted): only a literal `true` approves. */
export function approvalAnswers(
  message: unknown,
): Array<{ approvalId: string; approved: boolean; reason: string | null }> {
  if (!isRec(message) || message.role !== 'assistant' || !Array.isArray(message.parts)) return [];
  const out: Array<{ approvalId: string; approved: boolean; reason: string | null }> = [];
  for (const part of message.parts.slice(0, 10_000)) {
    if (!isRec(part) || part.state !== 'approval-responded' || !isRec(part.approval)) continue;
    if (typeof part.approval.id !== 'string') continue;
    out.push({
      approvalId: part.approval.id,
      approved: part.approval.approved === true,
      reason: typeof part.approval.reason === 'string' ? part.approval.reason : null,
    });
  }
  return out;
}

function lastAssistant(record: SessionRecord | undefined, messageId: string | null): Rec | undefined {
  const ui = Array.isArray(record?.ui) ? (record?.ui as unknown[]) : [];
  const last = ui.at(-1);
  if (!isRec(last) || last.role !== 'assistant') return undefined;
  if (messageId !== null && last.id !== messageId) return undefined;
  return last;
}

/** The chunks that take a part from `before` (as the client has it, or nothing) to `after` (as stored). */
function partChunks(before: Rec | undefined, after: Rec, index: number): AgentUIChunk[] {
  const out: AgentUIChunk[] = [];
  if (after.type === 'text' || after.type === 'reasoning') {
    if (typeof after.text !== 'string') return out;
    const id = `remote-${index}`;
    const kind = after.type;
    out.push({ type: `${kind}-start`, id } as AgentUIChunk);
    if (after.text !== '') out.push({ type: `${kind}-delta`, id, delta: after.text } as AgentUIChunk);
    out.push({ type: `${kind}-end`, id } as AgentUIChunk);
    return out;
  }
  if (
    after.type !== 'dynamic-tool' ||
    typeof after.toolCallId !== 'string' ||
    typeof after.toolName !== 'string'
  )
    return out;
  const toolCallId = after.toolCallId;
  const meta = isRec(after.toolMetadata) ? { toolMetadata: after.toolMetadata } : {};
  if (before === undefined)
    out.push({
      type: 'tool-input-available',
      toolCallId,
      toolName: after.toolName,
      input: after.input ?? null,
      dynamic: true,
      ...(typeof after.title === 'string' ? { title: after.title } : {}),
      ...meta,
    } as AgentUIChunk);
  if (before?.state === after.state) return out;
  switch (after.state) {
    case 'approval-requested':
      // The client answered it already; the running instance has not taken the answer yet.
      if (before?.state === 'approval-responded') break;
      if (isRec(after.approval) && typeof after.approval.id === 'string')
        out.push({
          type: 'tool-approval-request',
          approvalId: after.approval.id,
          toolCallId,
        } as AgentUIChunk);
      break;
    case 'output-available':
      out.push({
        type: 'tool-output-available',
        toolCallId,
        output: after.output ?? null,
        dynamic: true,
        ...meta,
      } as AgentUIChunk);
      break;
    case 'output-error':
      out.push({
        type: 'tool-output-error',
        toolCallId,
        errorText: typeof after.errorText === 'string' ? after.errorText : 'error',
        dynamic: true,
        ...meta,
      } as AgentUIChunk);
      break;
    case 'output-denied':
      out.push({ type: 'tool-output-denied', toolCallId } as AgentUIChunk);
      break;
    default:
      break;
  }
  return out;
}

/**
 * A response that follows the turn of session `id` running on another instance: it starts from the parts the
 * client has (`known`, the assistant message it sent back with its answers, or none for a reconnect) and streams
 * every stored change until the turn parks at new approvals or ends. `messageId` is the assistant message the turn
 * writes (null: whichever assistant message comes last).
 */
export function followRemoteTurn(
  store: SessionStore,
  id: string,
  known: Rec | undefined,
  options: { signal?: AbortSignal; pollMs?: number; answered?: ReadonlySet<string> } = {},
): ReadableStream<AgentUIChunk> {
  const knownParts: unknown = known?.parts;
  const sent: Rec[] = Array.isArray(knownParts) ? knownParts.filter(isRec) : [];
  const answered = options.answered ?? new Set<string>();
  let messageId = typeof known?.id === 'string' ? known.id : null;
  let wake: (() => void) | undefined;
  const off = store.subscribe((change) => {
    if (change.id === id) wake?.();
  });
  let started = false;
  return new ReadableStream<AgentUIChunk>({
    async pull(controller) {
      for (;;) {
        if (options.signal?.aborted) {
          off();
          controller.close();
          return;
        }
        const record = await store.get(id).catch(() => undefined);
        const message = lastAssistant(record, messageId);
        const running = record?.turn?.state === 'running';
        const waiting = (record?.pending ?? []).filter(
          (p) => p.answer === null && !answered.has(p.approvalId),
        );
        const parked = running && waiting.length > 0;
        const final = !running || parked;
        const chunks: AgentUIChunk[] = [];
        if (message && !started) {
          messageId = typeof message.id === 'string' ? message.id : null;
          chunks.push({ type: 'start', ...(messageId ? { messageId } : {}) } as AgentUIChunk);
          started = true;
        }
        if (message && Array.isArray(message.parts)) {
          const parts = (message.parts as unknown[]).filter(isRec);
          parts.forEach((part, i) => {
            const complete = final || i < parts.length - 1;
            if (part.type === 'text' || part.type === 'reasoning') {
              // A text is sent whole once it is complete (a later part follows it, or the turn parked or ended).
              if (sent[i] === undefined && complete) {
                chunks.push(...partChunks(undefined, part, i));
                sent[i] = part;
              }
              return;
            }
            chunks.push(...partChunks(sent[i], part, i));
            sent[i] = part;
          });
        }
        if (chunks.length > 0) {
          for (const c of chunks) controller.enqueue(c);
        }
        if (final || record === undefined) {
          if (!started) controller.enqueue({ type: 'start' } as AgentUIChunk);
          const metadata = isRec(message?.metadata) ? message.metadata : {};
          controller.enqueue({
            type: 'finish',
            messageMetadata: { ...metadata, awaitingApproval: parked },
          } as AgentUIChunk);
          off();
          controller.close();
          return;
        }
        if (chunks.length > 0) return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.pollMs ?? 500);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    cancel() {
      off();
    },
  });
}
