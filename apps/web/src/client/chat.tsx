import type { AgentUIMessage } from '@codeagent/adapter-ai-sdk-ui';
import { ALLOW_ALWAYS_REASON, readMessageMetadata, readToolPart } from '@codeagent/adapter-ai-sdk-ui/client';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { api, type SessionDetail } from './api.ts';
import { describeStatus } from './status.ts';
import { flattenRows, Transcript } from './transcript.tsx';
import {
  Chat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  useChat,
} from './vendor-ai.ts';
import { ApprovalPrompt, setHighlighter, workerHighlighter } from './vendor-kit.ts';

// Code blocks are tokenised in a worker (a module worker from this origin, which the CSP allows).
setHighlighter(
  workerHighlighter(new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module' })),
);

/** Props of {@link ChatView}. */
export interface ChatViewProps {
  readonly session: SessionDetail;
  readonly modes: readonly string[];
  /** Called when the session changed on the server (title, order in the list). */
  readonly onActivity: () => void;
}

/** Whether the page was asked to render without virtualisation (the bench's baseline). */
function virtualisation(): 'auto' | 'off' {
  return new URLSearchParams(window.location.search).get('virtual') === '0' ? 'off' : 'auto';
}

/** One session: the transcript from `useChat`, the approval dialog, the composer, mode switch and Stop. */
export function ChatView({ session, modes, onActivity }: ChatViewProps): ReactNode {
  const transport = useMemo(
    () =>
      new DefaultChatTransport<AgentUIMessage>({
        api: `/api/sessions/${encodeURIComponent(session.id)}/chat`,
        // The server keeps the history and reads only the last message (a new user message, or the assistant
        // message carrying approval answers): sending the whole history would serialise it on every request.
        prepareSendMessagesRequest: ({ id, messages, body, trigger, messageId }) => ({
          body: { ...body, id, messages: messages.slice(-1), trigger, messageId },
        }),
        prepareReconnectToStreamRequest: () => ({
          api: `/api/sessions/${encodeURIComponent(session.id)}/stream`,
        }),
      }),
    [session.id],
  );
  // A turn still runs (the page was reloaded mid-turn): show the history without its assistant message and replay
  // the turn from the server, which goes on where it is.
  const initial = useMemo(() => {
    const last = session.messages.at(-1);
    return session.busy && last?.role === 'assistant' ? session.messages.slice(0, -1) : session.messages;
  }, [session]);
  // A dropped connection (network, a restarted or replaced instance) reconnects by itself: the server replays the
  // running turn from its start and follows it live from any instance. The chat is made here, not by `useChat`, so
  // that it keeps the transport's `resumeStreamIsReplay` (useChat wraps a transport without it): a resumed stream
  // then resets the message at its first `start` instead of appending the replay to what the page already had.
  const reconnect = useRef({ attempts: 0, timer: 0, run: () => {}, onActivity });
  reconnect.current.onActivity = onActivity;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one chat per session, as useChat({id}) would keep.
  const chat = useMemo(
    () =>
      new Chat<AgentUIMessage>({
        id: session.id,
        messages: initial,
        transport,
        sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
        onFinish: ({ isDisconnect, isError }) => {
          reconnect.current.onActivity();
          if (!isDisconnect && !isError) reconnect.current.attempts = 0;
        },
        onError: (err) => {
          // fetch reports a lost connection as a TypeError; anything else is the server's answer.
          const r = reconnect.current;
          if (!(err instanceof TypeError) || r.attempts >= 20) return;
          window.clearTimeout(r.timer);
          r.timer = window.setTimeout(r.run, Math.min(5000, 250 * 2 ** r.attempts++));
        },
      }),
    [session.id, transport],
  );
  const { messages, sendMessage, addToolApprovalResponse, status, stop, setMessages, error, resumeStream } =
    useChat<AgentUIMessage>({ chat, resume: session.busy, experimental_throttle: 50 });
  reconnect.current.run = () => {
    void (async () => {
      await resumeStream();
      // The turn may have ended while the page was away (nothing to resume): the stored history has it.
      const fresh = await api.get(session.id).catch(() => null);
      if (fresh && !fresh.busy) setMessages(fresh.messages);
    })();
  };
  const [input, setInput] = useState('');
  const [mode, setMode] = useState(session.mode);
  const [aborting, setAborting] = useState(false);

  const rows = useMemo(() => flattenRows(messages), [messages]);
  const last = messages.at(-1);
  // The stream ended at an approval (the turn is parked on the server): Stop stays offered until it goes on.
  const parked = last?.role === 'assistant' ? readMessageMetadata(last).awaitingApproval === true : false;
  const running = status === 'submitted' || status === 'streaming';
  const waitingApprovals = useMemo(() => {
    if (last?.role !== 'assistant') return [];
    // Only parts that wait are read (validated): a long turn has thousands of finished ones.
    return last.parts
      .filter((part) => (part as { state?: unknown }).state === 'approval-requested')
      .map((part) => readToolPart(part))
      .filter((info) => info?.state === 'approval-requested' && info.approvalId !== null);
  }, [last]);
  const approval = waitingApprovals[0] ?? null;
  // Only unanswered approvals wait: an answered call runs (the parked flag stays on the message until it streams).
  const line = describeStatus(last, status, waitingApprovals.length);

  const submit = () => {
    const text = input.trim();
    if (text === '' || running) return;
    setInput('');
    void sendMessage({ text });
  };

  const abort = async () => {
    setAborting(true);
    try {
      await api.abort(session.id);
      await stop();
      // The server settled the turn (interrupted, approvals denied): show its copy.
      const fresh = await api.get(session.id);
      setMessages(fresh.messages);
    } finally {
      setAborting(false);
    }
  };

  const changeMode = async (next: string) => {
    setMode(next);
    await api.setMode(session.id, next);
  };

  return (
    <section className="chat" aria-label="Chat">
      <Transcript rows={rows} mode={virtualisation()} streaming={running} />
      {approval ? (
        <div className="approval-dock" data-testid="approval">
          {waitingApprovals.length > 1 ? (
            <p className="approval-count">
              {waitingApprovals.length} calls wait for your answer; this is the first.
            </p>
          ) : null}
          <ApprovalPrompt
            key={approval.approvalId}
            view={approval.call}
            toolName={approval.toolName}
            intent={approval.intent}
            onDecision={(decision) => {
              void addToolApprovalResponse({
                id: approval.approvalId as string,
                approved: decision !== 'deny',
                ...(decision === 'allow_always' ? { reason: ALLOW_ALWAYS_REASON } : {}),
              });
            }}
          />
        </div>
      ) : null}
      {error ? (
        <div className="error-banner" role="alert">
          {error.message}
        </div>
      ) : null}
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <textarea
          aria-label="Message"
          value={input}
          placeholder="Ask the agent…"
          rows={2}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <div className="composer-actions">
          <label className="mode">
            Mode{' '}
            <select
              aria-label="Permission mode"
              value={mode}
              onChange={(e) => void changeMode(e.target.value)}
            >
              {modes.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          {/* Always laid out (hidden when idle), so the message box keeps its width when a turn starts or ends. */}
          <button
            type="button"
            className={running || parked ? 'ca-button stop' : 'ca-button stop idle'}
            onClick={() => void abort()}
            disabled={aborting || !(running || parked)}
            aria-hidden={running || parked ? undefined : true}
            tabIndex={running || parked ? undefined : -1}
          >
            Stop
          </button>
          <button type="submit" className="ca-button send" disabled={running || input.trim() === ''}>
            Send
          </button>
        </div>
        <div
          className="status"
          data-testid="status"
          data-status={line.activity === 'awaiting-approval' ? 'awaiting-approval' : status}
          data-activity={line.activity}
          role="status"
        >
          {line.text}
        </div>
      </form>
    </section>
  );
}
