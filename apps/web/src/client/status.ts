import type { AgentUIMessage } from '@codeagent/adapter-ai-sdk-ui';
import { readMessageMetadata, readToolPart } from '@codeagent/adapter-ai-sdk-ui/client';

/** What the status line under the composer says, and a stable name of that state for tests and styles. */
export interface StatusLine {
  /** `awaiting-approval`, `running-tool`, `preparing-tool`, `thinking`, `writing`, `waiting-model`, `done`... */
  readonly activity: string;
  /** The words shown. */
  readonly text: string;
}

/** `useChat`'s status. */
export type ChatStatus = 'submitted' | 'streaming' | 'ready' | 'error';

const LONGEST = 80;

/**
 * One line of untrusted text for the status line: terminal escape sequences are dropped; other controls, bidi
 * overrides and line breaks become spaces.
 */
export function statusText(text: string): string {
  const plain = text.replace(/\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?)/g, '');
  const flat = plain.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g,
    ' ',
  );
  const one = flat.replace(/\s+/g, ' ').trim();
  return one.length > LONGEST ? `${one.slice(0, LONGEST - 1)}…` : one;
}

/** The end of a turn in words. */
function ended(stopReason: string | undefined): StatusLine {
  switch (stopReason) {
    case undefined:
      return { activity: 'ready', text: 'Ready' };
    case 'completed':
      return { activity: 'done', text: 'Done' };
    case 'interrupted':
      return { activity: 'stopped', text: 'Stopped' };
    default:
      return { activity: 'stopped', text: `Stopped (${statusText(stopReason.replace(/_/g, ' '))})` };
  }
}

/**
 * What is happening now, from the last message and `useChat`'s status: an unanswered approval, the tool that runs
 * (an approved call runs before the model streams again), reasoning, the answer streaming, the end of the turn.
 * Only the last meaningful part of the last message is read, so this stays cheap while thousands of deltas stream.
 */
export function describeStatus(
  last: AgentUIMessage | undefined,
  status: ChatStatus,
  waitingApprovals: number,
): StatusLine {
  if (waitingApprovals > 0) {
    return {
      activity: 'awaiting-approval',
      text:
        waitingApprovals === 1
          ? 'Waiting for your approval'
          : `Waiting for your approval (${waitingApprovals} calls)`,
    };
  }
  const running = status === 'submitted' || status === 'streaming';
  if (!running) {
    if (status === 'error') return { activity: 'error', text: 'Failed (see the message above)' };
    const meta = last?.role === 'assistant' ? readMessageMetadata(last) : null;
    // Every approval of a parked turn is answered and the answers are on their way (the next request starts).
    if (meta?.awaitingApproval === true) return { activity: 'resuming', text: 'Sending your answer…' };
    return ended(meta?.stopReason);
  }
  if (last?.role !== 'assistant') return { activity: 'waiting-model', text: 'Waiting for the model…' };
  for (let i = last.parts.length - 1; i >= 0; i--) {
    const part = last.parts[i] as { type: string; text?: unknown; state?: unknown };
    if (part.type === 'text' || part.type === 'reasoning') {
      if (typeof part.text !== 'string' || part.text === '') continue;
      if (part.state === 'done') return { activity: 'waiting-model', text: 'Waiting for the model…' };
      return part.type === 'text'
        ? { activity: 'writing', text: 'Writing the answer…' }
        : { activity: 'thinking', text: 'Thinking…' };
    }
    if (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) {
      const info = readToolPart(part);
      if (!info) continue;
      const title = statusText(info.call.title) || statusText(info.toolName);
      const more = title.endsWith('…') ? '' : '…';
      if (info.state === 'input-streaming')
        return { activity: 'preparing-tool', text: `Preparing ${title}${more}` };
      // A denied call never runs: the answer goes back to the model.
      const denied = (part as { approval?: { approved?: unknown } }).approval?.approved === false;
      if (info.status === 'running' && !denied)
        return { activity: 'running-tool', text: `Running ${title}${more}` };
      // The call ended (or waits for an answer given elsewhere): the model has the next word.
      return { activity: 'waiting-model', text: 'Waiting for the model…' };
    }
  }
  return { activity: 'waiting-model', text: 'Waiting for the model…' };
}
