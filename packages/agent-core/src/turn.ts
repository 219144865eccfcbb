import { setMaxListeners } from 'node:events';
import { getErrorMessage, type LanguageModelV3 } from '@ai-sdk/provider';
import { normalizeToolOutput } from '@codeagent/artifact-schema';
import type { ToolCallView } from '@codeagent/render-intent';
import {
  type ModelMessage,
  type StepResult,
  stepCountIs,
  streamText,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { type Compactor, transcriptOf } from './compaction.js';
import { AgentCoreError, classifyError, errorMessage } from './errors.js';
import type { AgentEvent, StreamResult } from './events.js';
import type { PendingStep } from './resume-types.js';
import { type StreamInput, toUserMessage } from './input.js';
import { abortError, type resolveRetry, withRetry } from './retry.js';
import type { SessionState } from './session-state.js';
import type { SkillWiring } from './skill-wiring.js';
import { mapStopReason, stopNote } from './stop-reason.js';
import { splitIntent } from './tool.js';
import { ToolOutputSink } from './tool-output.js';
import { ToolOutcome, type ToolRunner } from './tool-runner.js';
import { estimateMessageTokens, type TokenThresholds } from './usage.js';

/** What the stream consumer knows about one tool call of the turn. */
interface CallState {
  /** Arguments as the model sent them (with `_intent`). */
  input: unknown;
  /** The call's card, once presented. */
  view: ToolCallView | undefined;
  /** The host got the `tool-request` (the gate may decide). */
  delivered: boolean;
  /** Wakes an `execute` that started before the request was delivered. */
  wake: (() => void) | null;
}

/**
 * One running turn: the event sink (a throwing callback aborts the turn instead of escaping), the turn's
 * abort signal with a single listener every wait races against, and the state of its tool calls.
 */
export class Turn {
  /** Aborted by the user's signal or a failing callback. */
  readonly signal: AbortSignal;
  /** The first error a callback threw, if one did. */
  callbackFailure: { error: unknown } | null = null;
  readonly #controller = new AbortController();
  readonly #deliver: (e: AgentEvent) => void;
  readonly #calls = new Map<string, CallState>();
  readonly #liveOutput: boolean;
  #closed = false;
  #aborted: Promise<never> | null = null;

  constructor(deliver: (e: AgentEvent) => void, liveOutput = true) {
    this.#deliver = deliver;
    this.#liveOutput = liveOutput;
    this.signal = this.#controller.signal;
    // The AI SDK merges this signal per step and per tool call; that is not a leak.
    setMaxListeners(0, this.signal);
  }

  /** Delivers an event; a throwing callback ends the turn through the error path. */
  readonly emit = (e: AgentEvent): void => {
    if (this.#closed) return;
    try {
      this.#deliver(e);
    } catch (err) {
      this.callbackFailure ??= { error: err };
      this.#controller.abort(err);
    }
  };

  /** The live output of a call about to execute, or `null` when nobody listens to `tool-output`. */
  outputSink(id: string, name: string, signal: AbortSignal): ToolOutputSink | null {
    return this.#liveOutput && !this.#closed ? new ToolOutputSink(id, name, this.emit, signal) : null;
  }

  /** Aborts the turn (user abort). */
  abort(reason: unknown): void {
    this.#controller.abort(reason);
  }

  /** No event goes out through {@link Turn.emit} any more (the closing events are delivered directly). */
  close(): void {
    this.#closed = true;
  }

  /** Delivers a closing event; a throwing callback can no longer change the result. */
  deliverFinal(e: AgentEvent): void {
    try {
      this.#deliver(e);
    } catch {
      // The turn is over.
    }
  }

  /** Resolves like `p`, or rejects with an AbortError as soon as `signal` (or the turn) aborts. */
  race<T>(p: Promise<T>, signal: AbortSignal = this.signal): Promise<T> {
    if (signal.aborted) {
      // Nobody waits for `p` any more; its late rejection must not surface as unhandled.
      p.catch(() => undefined);
      return Promise.reject(abortError());
    }
    if (this.#aborted === null) {
      const aborted = new Promise<never>((_, reject) => {
        this.signal.addEventListener('abort', () => reject(abortError()), { once: true });
      });
      aborted.catch(() => undefined);
      this.#aborted = aborted;
    }
    return Promise.race([p, this.#aborted]);
  }

  #call(id: string): CallState {
    let c = this.#calls.get(id);
    if (!c) {
      c = { input: undefined, view: undefined, delivered: false, wake: null };
      this.#calls.set(id, c);
    }
    return c;
  }

  /** Records a call the stream consumer saw and its card. */
  callSeen(id: string, input: unknown, view: ToolCallView): void {
    const c = this.#call(id);
    c.input = input;
    c.view = view;
  }

  /** The `tool-request` of the call went out: an `execute` waiting for it may go on. */
  requestDone(id: string): void {
    const c = this.#call(id);
    c.delivered = true;
    c.wake?.();
    c.wake = null;
  }

  /** Waits until the call's `tool-request` was delivered (the gate must not run before it). */
  requestDelivered(id: string, signal: AbortSignal): Promise<void> | undefined {
    const c = this.#call(id);
    if (c.delivered) return undefined;
    return this.race(
      new Promise<void>((resolve) => {
        c.wake = resolve;
      }),
      signal,
    );
  }

  /** The call's input and card, forgotten once its result is presented. */
  takeCall(id: string): { readonly input: unknown; readonly view: ToolCallView | undefined } | undefined {
    const c = this.#calls.get(id);
    if (c) this.#calls.delete(id);
    return c;
  }
}

/** What a turn accumulates over its model requests. */
export interface TurnTotals {
  text: string;
  finishReason: string | undefined;
  rawFinish: string | undefined;
  inputTokens: number;
  outputTokens: number;
}

/** One `streamText` run over a base history (a turn has a second one after a prompt-too-long error). */
export class Attempt {
  /** Cumulative response messages of the completed steps. */
  responses: ModelMessage[] = [];
  /** Compacted prefix replacing the first `covered` messages of `base + responses`, if any. */
  replacement: readonly ModelMessage[] | null = null;
  covered = 0;
  stepsDone = 0;
  /** Tool calls of the current step still waiting for a result. */
  pending = new Set<string>();
  /** Where the current step's text starts in the turn's text. */
  stepTextFrom = 0;
  /** The current step's tool calls, in the order the model made them (arguments with `_intent`). */
  stepCalls: Array<{ id: string; name: string; arguments: unknown }> = [];
  /** Results of the current step's calls that came so far. */
  stepResults = new Map<string, { value: string; isError: boolean }>();
  streamError: unknown;
  aborted = false;
  budgetExceeded = false;
  readonly base: ModelMessage[];
  /** Model requests this attempt may make. */
  readonly stepsLeft: number;
  // Running sum of the message estimates of the last step input: a step only adds messages. The estimates are kept
  // by index (`#tokens[i]` of `#counted[i]`), so the prompt-too-long path reads them without a lookup per message.
  #counted: readonly ModelMessage[] = [];
  #tokens: number[] = [];
  #sum = 0;

  constructor(base: ModelMessage[], stepsLeft: number) {
    this.base = base;
    this.stepsLeft = stepsLeft;
  }

  /** The history after this attempt: base, responses, with the compacted prefix applied. */
  history(): ModelMessage[] {
    const all = [...this.base, ...this.responses];
    return this.replacement ? [...this.replacement, ...all.slice(this.covered)] : all;
  }

  /** Sum of the message estimates of `msgs`, counting only what was added since the previous step. */
  messageTokens(msgs: readonly ModelMessage[]): number {
    const prev = this.#counted;
    const tokens = this.#tokens;
    const n = tokens.length;
    if (n > msgs.length || msgs[0] !== prev[0] || (n > 0 && msgs[n - 1] !== prev[n - 1])) {
      tokens.length = 0;
      this.#sum = 0;
    }
    for (let i = tokens.length; i < msgs.length; i++) {
      const t = estimateMessageTokens(msgs[i] as ModelMessage);
      tokens.push(t);
      this.#sum += t;
    }
    this.#counted = msgs;
    return this.#sum;
  }

  /**
   * The estimate of each message of `msgs`, by index: the one counted for the same message at the same index of the
   * last step input, else looked up (an identity check per message instead of a cache lookup).
   */
  tokensOf(msgs: readonly ModelMessage[]): Float64Array {
    const prev = this.#counted;
    const known = this.#tokens;
    const out = new Float64Array(msgs.length);
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i] as ModelMessage;
      out[i] = i < known.length && prev[i] === m ? (known[i] as number) : estimateMessageTokens(m);
    }
    return out;
  }
}

/** The settings and rooms a turn runner works with. */
export interface TurnRunnerParts {
  readonly model: LanguageModelV3;
  readonly retry: ReturnType<typeof resolveRetry>;
  readonly maxTurns: number;
  readonly tickMs: number;
  readonly thresholds: TokenThresholds;
  readonly session: SessionState;
  readonly tools: ToolRunner;
  readonly skills: SkillWiring | null;
  /** The system prompt of the next request (the host's, plus the skills hint once loaded). */
  readonly systemPrompt: () => string | undefined;
  /** Created after the runner (its summaries go through the runner's model). */
  readonly compactor: () => Compactor;
}

/**
 * The turn room of a client. {@link TurnRunner.run} is the path of one turn: expand a slash command,
 * append the user message, run `streamText` (compaction in `prepareStep`, events from `fullStream`), retry
 * once after a prompt-too-long error with the oldest rounds dropped, commit the history, then the closing
 * `usage` / `error` and `end` events.
 */
export class TurnRunner {
  readonly #p: TurnRunnerParts;
  #current: Turn | null = null;
  /** The running attempt and the turn's text so far (for {@link TurnRunner.pendingStep}). */
  #now: { attempt: Attempt; totals: TurnTotals } | null = null;

  constructor(parts: TurnRunnerParts) {
    this.#p = parts;
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.#current !== null;
  }

  /**
   * The model step the running turn is in, when some of its tool calls still wait for a result (e.g. on an
   * approval): its text, its calls, the results that came, and the model requests of the turn so far; else `null`.
   */
  pendingStep(): PendingStep | null {
    const now = this.#now;
    if (this.#current === null || now === null) return null;
    const { attempt, totals } = now;
    const calls = attempt.stepCalls;
    if (calls.length === 0 || calls.every((c) => attempt.stepResults.has(c.id))) return null;
    const results: PendingStep['results'][number][] = [];
    for (const c of calls) {
      const r = attempt.stepResults.get(c.id);
      if (r) results.push({ id: c.id, value: r.value, isError: r.isError });
    }
    return {
      text: totals.text.slice(attempt.stepTextFrom),
      calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: structuredCloneSafe(c.arguments) })),
      results,
      requests: this.#p.maxTurns - attempt.stepsLeft + attempt.stepsDone + 1,
    };
  }

  /**
   * Runs one turn, delivering its events to `deliver`; always resolves. `liveOutput: false` (nobody listens to
   * `tool-output`) hands tools a no-op `ctx.output`.
   */
  async run(
    input: StreamInput,
    deliver: (e: AgentEvent) => void,
    userSignal?: AbortSignal,
    liveOutput = true,
  ): Promise<StreamResult> {
    return this.runWith(
      async (turn) => {
        const expanded = (await this.#p.skills?.expand(input, turn.emit)) ?? input;
        return { base: [...this.#p.session.history, toUserMessage(expanded)], stepsLeft: this.#p.maxTurns };
      },
      deliver,
      userSignal,
      liveOutput,
    );
  }

  /**
   * Runs one turn whose first model request goes out over the history `begin` returns (a new user message, or a
   * resumed step with its tool results: `resume.ts`), with `stepsLeft` model requests; always resolves. A `begin`
   * that throws ends the turn through the error path with the history unchanged; `stepsLeft` 0 ends it at
   * `max_turns` with that history and no request.
   */
  async runWith(
    begin: (turn: Turn, totals: TurnTotals) => Promise<{ base: ModelMessage[]; stepsLeft: number }>,
    deliver: (e: AgentEvent) => void,
    userSignal?: AbortSignal,
    liveOutput = true,
  ): Promise<StreamResult> {
    const refusal =
      this.#current !== null
        ? 'a turn is already running on this client'
        : userSignal !== undefined && !(userSignal instanceof AbortSignal)
          ? 'options.signal must be an AbortSignal'
          : null;
    if (refusal !== null) return refuse(deliver, refusal);

    const { session, tools } = this.#p;
    const turn = new Turn(deliver, liveOutput);
    const onUserAbort = () => turn.abort(userSignal?.reason);
    if (userSignal?.aborted) turn.abort(userSignal.reason);
    else userSignal?.addEventListener('abort', onUserAbort, { once: true });
    this.#current = turn;
    tools.begin(turn);
    const tick = setInterval(() => turn.emit({ type: 'tick' }), this.#p.tickMs);
    tick.unref?.();

    const totals: TurnTotals = {
      text: '',
      finishReason: undefined,
      rawFinish: undefined,
      inputTokens: 0,
      outputTokens: 0,
    };
    let last: Attempt | null = null;
    let failure: { error: unknown } | null = null;
    try {
      // The skills hint is part of the system prompt of every turn, a resumed one too.
      await this.#p.skills?.loadHint();
      const start = await begin(turn, totals);
      if (start.stepsLeft <= 0) {
        // The budget went to earlier requests of this turn (a resumed step): its results are kept, nothing is asked.
        last = new Attempt(start.base, 0);
        totals.finishReason = 'tool-calls';
        totals.rawFinish = 'tool-calls';
      } else last = await this.#attempt(turn, totals, start.base, start.stepsLeft);
      const retry = this.#afterPromptTooLong(turn, last);
      if (retry) last = await this.#attempt(turn, totals, retry, last.stepsLeft - last.stepsDone);
      if (last.streamError !== undefined && !last.budgetExceeded && !turn.signal.aborted) {
        failure = { error: last.streamError };
      }
      session.setMessages(last.history());
    } catch (e) {
      failure = { error: e };
    } finally {
      clearInterval(tick);
      userSignal?.removeEventListener('abort', onUserAbort);
      tools.end();
      this.#current = null;
      this.#now = null;
    }
    return this.#finish(turn, totals, last, failure, userSignal?.aborted === true);
  }

  /** One `streamText` run: every part of `fullStream` goes through {@link TurnRunner.consume}. */
  async #attempt(turn: Turn, totals: TurnTotals, base: ModelMessage[], stepsLeft: number): Promise<Attempt> {
    const attempt = new Attempt(base, stepsLeft);
    this.#now = { attempt, totals };
    const model = withRetry(this.#p.model, this.#p.retry, (message) =>
      turn.emit({ type: 'error', message, recovered: true }),
    );
    const system = this.#p.systemPrompt();
    const result = streamText({
      model,
      ...(system !== undefined ? { system } : {}),
      messages: base,
      tools: this.#p.tools.sdkTools,
      stopWhen: stepCountIs(stepsLeft),
      maxRetries: 0,
      abortSignal: turn.signal,
      onError: () => undefined,
      onStepFinish: (step: StepResult<ToolSet>) => {
        attempt.responses = step.response.messages as ModelMessage[];
      },
      prepareStep: ({ messages }) => this.#prepareStep(turn, attempt, messages),
    });
    try {
      for await (const part of result.fullStream) this.#consume(turn, attempt, totals, part);
    } catch (e) {
      if (turn.signal.aborted) attempt.aborted = true;
      else attempt.streamError ??= e;
    }
    return attempt;
  }

  /**
   * After a prompt-too-long error (first attempt only): drops whole oldest rounds and returns the base of
   * the second attempt, or `null` when the turn cannot retry.
   */
  #afterPromptTooLong(turn: Turn, attempt: Attempt): ModelMessage[] | null {
    const { streamError } = attempt;
    if (streamError === undefined || attempt.budgetExceeded || turn.signal.aborted) return null;
    if (classifyError(streamError) !== 'prompt-too-long') return null;
    const { session } = this.#p;
    const history = attempt.history();
    // The estimates the rejected request counted, by index (the same sum as `session.estimate(history)`).
    const tokens = attempt.tokensOf(history);
    const overhead = session.overheadTokens();
    let sum = overhead;
    for (let i = 0; i < tokens.length; i++) sum += tokens[i] as number;
    const before = Math.max(sum, session.lastReported);
    const dropped = this.#p
      .compactor()
      .dropOldest(history, overhead, before, errorMessage(streamError), tokens);
    if (!dropped) return null;
    session.addCompaction(dropped.decision);
    turn.emit({ type: 'compaction', decision: dropped.decision });
    turn.emit({
      type: 'error',
      message: `Prompt too long: dropped ${dropped.decision.dropped.length} oldest messages, retrying once`,
      recovered: true,
    });
    session.lastReported = 0;
    return attempt.stepsLeft - attempt.stepsDone > 0 ? dropped.messages.slice() : null;
  }

  /** Before every model request: compaction over the threshold, refusal at the blocking level. */
  async #prepareStep(
    turn: Turn,
    attempt: Attempt,
    stepInput: ModelMessage[],
  ): Promise<{ messages?: ModelMessage[] }> {
    const { session, thresholds } = this.#p;
    // streamText rebuilds each step's input from the original messages: re-apply this turn's compaction.
    let msgs: readonly ModelMessage[] = attempt.replacement
      ? [...attempt.replacement, ...stepInput.slice(attempt.covered)]
      : stepInput;
    let tokens = session.overheadTokens() + attempt.messageTokens(msgs);
    const before = Math.max(tokens, session.lastReported);
    const compactor = this.#p.compactor();
    if (before >= thresholds.threshold && compactor.settings.enabled) {
      const out = await compactor.compact({
        messages: msgs,
        beforeTokens: before,
        estimate: (m) => session.estimate(m),
        reason: `context at ${before} tokens, over the ${thresholds.threshold}-token threshold`,
        signal: turn.signal,
      });
      session.addCompaction(out.decision);
      turn.emit({ type: 'compaction', decision: out.decision });
      if (out.messages !== msgs) {
        attempt.replacement = out.messages;
        attempt.covered = stepInput.length;
        msgs = out.messages;
        session.lastReported = 0;
        tokens = session.overheadTokens() + attempt.messageTokens(msgs);
      }
    }
    if (Math.max(tokens, session.lastReported) >= thresholds.blocking) {
      attempt.budgetExceeded = true;
      throw new AgentCoreError('compaction-failed', 'context at the blocking limit');
    }
    return attempt.replacement ? { messages: msgs as ModelMessage[] } : {};
  }

  /** Turns one `fullStream` part into events and bookkeeping. */
  #consume(turn: Turn, attempt: Attempt, totals: TurnTotals, part: TextStreamPart<ToolSet>): void {
    switch (part.type) {
      case 'text-delta':
        totals.text += part.text;
        turn.emit({ type: 'delta', text: part.text });
        return;
      case 'reasoning-delta':
        turn.emit({ type: 'thinking', text: part.text });
        return;
      case 'start-step':
        attempt.pending = new Set();
        attempt.stepTextFrom = totals.text.length;
        attempt.stepCalls = [];
        attempt.stepResults = new Map();
        return;
      case 'tool-call': {
        const id = part.toolCallId;
        attempt.pending.add(id);
        // A provider-executed call (a provider's own tool) is answered by the provider, not by this loop.
        if (part.providerExecuted !== true)
          attempt.stepCalls.push({ id, name: part.toolName, arguments: part.input });
        const { intent, args } = splitIntent(part.input);
        // A valid call was checked against the tool's schema by the SDK; an invalid one is checked again.
        const view = this.#p.tools.presentCall(id, part.toolName, args, part.invalid !== true);
        turn.callSeen(id, part.input, view);
        turn.emit({ type: 'tool-request', id, name: part.toolName, arguments: part.input, intent, view });
        turn.requestDone(id);
        return;
      }
      case 'tool-result': {
        attempt.pending.delete(part.toolCallId);
        const out: unknown = part.output;
        const outcome = out instanceof ToolOutcome ? out : new ToolOutcome(normalizeToolOutput(out));
        attempt.stepResults.set(part.toolCallId, { value: outcome.result.value, isError: outcome.isError });
        this.present(turn, part.toolCallId, part.toolName, outcome);
        return;
      }
      case 'tool-error': {
        attempt.pending.delete(part.toolCallId);
        if (turn.signal.aborted) return;
        // Exactly the text the SDK sends the model for this error.
        const message = getErrorMessage(part.error);
        attempt.stepResults.set(part.toolCallId, { value: message, isError: true });
        this.present(turn, part.toolCallId, part.toolName, ToolOutcome.failure(message, message));
        return;
      }
      case 'finish-step': {
        attempt.stepsDone++;
        totals.finishReason = part.finishReason;
        totals.rawFinish = part.rawFinishReason ?? part.finishReason;
        const { inputTokens, outputTokens } = part.usage;
        totals.inputTokens += inputTokens ?? 0;
        totals.outputTokens += outputTokens ?? 0;
        if (inputTokens !== undefined || outputTokens !== undefined) {
          this.#p.session.lastReported = (inputTokens ?? 0) + (outputTokens ?? 0);
        }
        return;
      }
      case 'error':
        attempt.streamError ??= part.error;
        return;
      case 'abort':
        attempt.aborted = true;
        return;
      default:
        // Lifecycle parts (start, text-start/end, tool-input-*, sources, files...) carry nothing for the host.
        return;
    }
  }

  /** A finished call: result card, stored record, `tool-result` event. */
  present(turn: Turn, id: string, name: string, out: ToolOutcome): void {
    const { tools, session } = this.#p;
    const call = turn.takeCall(id);
    const record = tools.presentResult(id, name, call?.input, call?.view, out.result, out.isError);
    session.addRecord(record);
    // The fields of `tools.resultEvent(record)` in its order, built once (no spread of a second object per call).
    turn.emit({
      type: 'tool-result',
      id: record.id,
      name: record.name,
      display: tools.displayOf(record.result, record.view),
      value: record.result.value,
      isError: record.isError,
      artifact: out.artifact,
      view: record.view,
    });
  }

  /** The stop reason, the usage record and the closing events. */
  #finish(
    turn: Turn,
    totals: TurnTotals,
    last: Attempt | null,
    streamFailure: { error: unknown } | null,
    userAborted: boolean,
  ): StreamResult {
    const { session } = this.#p;
    let failure = streamFailure;
    const callbackFailure = turn.callbackFailure;
    if (callbackFailure) {
      failure = {
        error: new AgentCoreError(
          'callback-failed',
          `a callback threw: ${errorMessage(callbackFailure.error)}`,
          {
            cause: callbackFailure.error,
          },
        ),
      };
    }
    const aborted = !callbackFailure && userAborted;
    // Aborted without a user abort or a failed callback: the stream itself gave up.
    const failed = failure !== null || (last?.aborted === true && !callbackFailure && !userAborted);
    const budgetExceeded = last?.budgetExceeded === true;
    const unresolved = budgetExceeded ? 0 : (last?.pending.size ?? 0);
    const hitMaxTurns =
      last !== null &&
      last.stepsDone >= last.stepsLeft &&
      totals.finishReason === 'tool-calls' &&
      unresolved === 0;
    const stopReason = mapStopReason({
      finishReason: aborted || failed ? undefined : totals.finishReason,
      failed: failed && !aborted,
      aborted,
      hitMaxTurns,
      budgetExceeded,
      unresolvedToolCalls: unresolved,
    });
    const inputTokens = totals.inputTokens + session.summaryUsage.input;
    const outputTokens = totals.outputTokens + session.summaryUsage.output;
    session.summaryUsage.input = 0;
    session.summaryUsage.output = 0;
    const usage = stopReason === 'error' ? null : session.usage(inputTokens, outputTokens);
    const result: StreamResult = {
      text: totals.text,
      usage,
      stopReason,
      finishReason: totals.rawFinish ?? null,
    };
    turn.close();
    if (stopReason === 'error') {
      const message = errorMessage(failure ? failure.error : 'unknown error');
      turn.deliverFinal({ type: 'error', message, recovered: false });
    } else {
      const note = stopNote(stopReason);
      if (note) turn.deliverFinal({ type: 'error', message: note, recovered: true });
      if (usage) turn.deliverFinal({ type: 'usage', usage });
    }
    turn.deliverFinal({ type: 'end', result });
    return result;
  }

  /** Summarises older messages through the client's model (compaction); billed with the turn. */
  async summarize(
    messages: readonly ModelMessage[],
    signal: AbortSignal | undefined,
    prompt: string,
  ): Promise<string> {
    const turn = this.#current;
    const model = withRetry(this.#p.model, this.#p.retry, (message) =>
      turn?.emit({ type: 'error', message, recovered: true }),
    );
    let failure: unknown;
    const result = streamText({
      model,
      system: prompt,
      prompt: `Summarise this conversation:\n\n${transcriptOf(messages)}`,
      maxRetries: 0,
      ...(signal ? { abortSignal: signal } : {}),
      onError: () => undefined,
    });
    let text = '';
    const usage = this.#p.session.summaryUsage;
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      else if (part.type === 'error') failure = part.error;
      else if (part.type === 'abort') throw abortError();
      else if (part.type === 'finish') {
        usage.input += part.totalUsage.inputTokens ?? 0;
        usage.output += part.totalUsage.outputTokens ?? 0;
      }
    }
    if (failure !== undefined) throw failure;
    return text;
  }
}

/** A JSON copy of a call's arguments (a model's arguments are JSON; anything else is dropped to `null`). */
function structuredCloneSafe(value: unknown): unknown {
  try {
    return value === undefined ? null : JSON.parse(JSON.stringify(value));
  } catch {
    return null;
  }
}

/** A turn refused before it starts: an error event, then `end`. */
function refuse(deliver: (e: AgentEvent) => void, message: string): StreamResult {
  const result: StreamResult = { text: '', usage: null, stopReason: 'error', finishReason: null };
  try {
    deliver({ type: 'error', message, recovered: false });
    deliver({ type: 'end', result });
  } catch {
    // The error path already applies.
  }
  return result;
}
