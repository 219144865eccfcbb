import { type CodeagentClient, createClient, restoreSession, turnRunnerOf } from './client.js';
import { AgentCoreError } from './errors.js';
import {
  type AgentEvent,
  dispatchToCallbacks,
  type StreamCallbacks,
  type StreamOptions,
  type StreamResult,
} from './events.js';
import type { StreamInput } from './input.js';
import type { CreateClientOptions } from './options.js';
import { type ParseSessionOptions, parseSession } from './session.js';
import type { TurnRunner } from './turn.js';

/** The turn runner of `client` (`turn.ts`); throws for anything `createClient` did not make. */
function turnRunner(client: CodeagentClient, fn: string): TurnRunner {
  const runner = turnRunnerOf(client);
  if (!runner) throw new AgentCoreError('invalid-options', `${fn}: expected a client made by createClient`);
  return runner;
}

/**
 * Runs one turn and delivers its events to typed callbacks. The promise always resolves, also on
 * errors (then with the partial text, `usage: null` and `stopReason: 'error'`, after `onError`).
 */
export function stream(
  client: CodeagentClient,
  input: StreamInput,
  callbacks: StreamCallbacks = {},
  options: StreamOptions = {},
): Promise<StreamResult> {
  return turnRunner(client, 'stream').run(
    input,
    (event) => dispatchToCallbacks(callbacks, event),
    options.signal,
    typeof callbacks?.onToolOutput === 'function',
  );
}

/**
 * Runs one turn and yields its events as a typed union, in the same order the callbacks get them; the
 * last event is `{type: 'end', result}`. Leaving the loop early (break/return) interrupts the turn.
 */
export function streamEvents(
  client: CodeagentClient,
  input: StreamInput,
  options: StreamOptions = {},
): AsyncIterable<AgentEvent> {
  const runner = turnRunner(client, 'streamEvents');
  return eventIterable((deliver, signal) => runner.run(input, deliver, signal), options);
}

/**
 * The events of a turn that `start` runs (delivering each event, under the given signal), as an async iterable;
 * leaving the loop early aborts that signal and waits for the turn to end.
 */
export function eventIterable(
  start: (deliver: (event: AgentEvent) => void, signal: AbortSignal) => Promise<unknown>,
  options: StreamOptions = {},
): AsyncIterable<AgentEvent> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
      const queue: AgentEvent[] = [];
      let head = 0;
      let done = false;
      let wake: (() => void) | null = null;
      const stop = new AbortController();
      const outer: unknown = options.signal;
      // Anything but a real AbortSignal is handed through so the turn refuses it on the error path.
      const signal =
        outer === undefined || outer instanceof AbortSignal ? stop.signal : (outer as AbortSignal);
      const onOuter = () => stop.abort((outer as AbortSignal).reason);
      if (outer instanceof AbortSignal) {
        if (outer.aborted) stop.abort(outer.reason);
        else outer.addEventListener('abort', onOuter, { once: true });
      }
      const finished = start((event) => {
        queue.push(event);
        if (event.type === 'end') done = true;
        const w = wake;
        wake = null;
        w?.();
      }, signal).finally(() => {
        if (outer instanceof AbortSignal) outer.removeEventListener('abort', onOuter);
        done = true;
        const w = wake;
        wake = null;
        w?.();
      });
      return {
        async next(): Promise<IteratorResult<AgentEvent>> {
          for (;;) {
            if (head < queue.length) {
              const value = queue[head] as AgentEvent;
              queue[head++] = undefined as never;
              if (head > 1024 && head * 2 > queue.length) {
                queue.splice(0, head);
                head = 0;
              }
              return { value, done: false };
            }
            if (done) return { value: undefined, done: true };
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        },
        async return(): Promise<IteratorResult<AgentEvent>> {
          if (!done) stop.abort(new Error('event iterator closed by the consumer'));
          await finished;
          head = queue.length;
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/**
 * Restores a saved session into a new client built from `options` (the host passes model and tools
 * again). History, tool call ids and provider-facing values are restored exactly; legacy or malformed
 * artifacts are upgraded on the display copy only; session-scoped permission grants are not restored.
 * The session file is untrusted: permission mode and working directory come from `options` (defaults
 * `default` and `process.cwd()`, as for `createClient`), never from the file's `permissionMode` / `cwd`.
 * Throws {@link AgentCoreError} `invalid-session` for bad JSON.
 */
export function loadSession(
  json: unknown,
  options: CreateClientOptions,
  parseOptions: ParseSessionOptions = {},
): CodeagentClient {
  const data = parseSession(json, parseOptions);
  // Never `data.permissionMode` / `data.cwd`: a file saying `bypass` must not run Bash unasked.
  const client = createClient(options);
  restoreSession(client, {
    messages: data.messages,
    records: data.toolResults,
    compactions: data.compactions,
    compactionFailures: data.compactionFailures,
    lastReportedTokens: data.lastReportedTokens,
  });
  return client;
}
