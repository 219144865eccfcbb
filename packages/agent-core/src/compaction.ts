import type { ModelMessage, ToolModelMessage } from 'ai';
import { AgentCoreError, errorMessage } from './errors.js';
import { estimateMessageTokens, toolOutputChars } from './usage.js';

/** What a compaction did. */
export type CompactionAction = 'snip' | 'summary' | 'full-summary' | 'drop-oldest' | 'failed' | 'skipped';

/** Every compaction action, in a stable order. */
export const COMPACTION_ACTIONS: readonly CompactionAction[] = Object.freeze([
  'snip',
  'summary',
  'full-summary',
  'drop-oldest',
  'failed',
  'skipped',
] as const);

/** One thing a compaction removed from the provider-facing history. */
export type DroppedItem =
  | {
      /** A tool result whose content was replaced by `[Old tool result content cleared]`. */
      readonly kind: 'tool-result';
      /** Index of the tool message in the history before the compaction. */
      readonly index: number;
      /** The tool call id (kept: only the content is cleared). */
      readonly toolCallId: string;
      /** The tool name. */
      readonly toolName: string;
      /** Estimated tokens removed. */
      readonly tokens: number;
    }
  | {
      /** A whole message, replaced by a summary or dropped. */
      readonly kind: 'message';
      /** Index of the message in the history before the compaction. */
      readonly index: number;
      /** Its role. */
      readonly role: ModelMessage['role'];
      /** Estimated tokens removed. */
      readonly tokens: number;
      /** The first characters of its text, for the record. */
      readonly preview: string;
      /** Tool call ids the message carried (calls or results). */
      readonly toolCallIds: readonly string[];
    };

/** A compaction decision, emitted as an event and kept in the session. */
export interface CompactionDecision {
  /** What was done. */
  readonly action: CompactionAction;
  /** Why (threshold crossed, manual, prompt too long, circuit open...). */
  readonly reason: string;
  /** Token count before. */
  readonly beforeTokens: number;
  /** Token count after (equal to before when nothing changed). */
  readonly afterTokens: number;
  /** The auto-compaction threshold in force. */
  readonly threshold: number;
  /** What was removed, item by item. */
  readonly dropped: readonly DroppedItem[];
}

/** Compaction settings of a client. */
export interface CompactionOptions {
  /** Turn automatic compaction on or off (manual `client.compact()` always works); default true. */
  readonly enabled?: boolean;
  /** Rounds (a user message and what follows) never snipped or summarised; default 2. */
  readonly keepRecentTurns?: number;
  /** Tool results longer than this many characters are cleared by a snip; default 2000. */
  readonly clearToolResultsOver?: number;
  /** Consecutive failures that open the circuit breaker; default 3. */
  readonly maxConsecutiveFailures?: number;
  /** System prompt for the summary request. */
  readonly summaryPrompt?: string;
}

/** The placeholder that replaces a cleared tool result. */
export const CLEARED_TOOL_RESULT = '[Old tool result content cleared]';

/** Adds the user's own instructions (`/compact <instructions>`) to the summary request's system prompt. */
export function summaryPromptWith(prompt: string, instructions: string | undefined): string {
  const extra = instructions?.trim();
  return extra ? `${prompt}\n\nThe user asked for this summary: ${extra}` : prompt;
}

/** The default instructions of the summary request. */
export const DEFAULT_SUMMARY_PROMPT =
  'You are compacting a conversation between a user and a coding agent so it can continue within a smaller context. ' +
  'Write a faithful, dense summary: the user goals and constraints, decisions taken, files and commands involved, ' +
  'results of tool calls that still matter, open problems and the next steps. Do not invent anything. ' +
  'Answer with the summary only.';

/** A problem found by {@link validateToolPairs}. */
export interface PairProblem {
  /** Index of the offending message. */
  readonly index: number;
  /** What is wrong. */
  readonly message: string;
}

/**
 * Checks that every tool call is answered by exactly one tool result in the tool message(s) that follow
 * it, and that every tool result answers an earlier call. Returns the problems found (empty when valid).
 */
export function validateToolPairs(messages: readonly ModelMessage[]): PairProblem[] {
  const problems: PairProblem[] = [];
  let open = new Map<string, number>();
  const answered = new Set<string>();
  const closeOpen = (at: number) => {
    if (open.size === 0) return;
    for (const [id, idx] of open)
      problems.push({ index: idx, message: `tool call ${id} has no result before message ${at}` });
    open = new Map();
  };
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      for (const part of m.content) {
        if (part.type !== 'tool-result') continue;
        if (!open.has(part.toolCallId)) {
          problems.push({
            index: i,
            message: answered.has(part.toolCallId)
              ? `tool result ${part.toolCallId} answers a call twice`
              : `tool result ${part.toolCallId} has no matching call`,
          });
          continue;
        }
        open.delete(part.toolCallId);
        answered.add(part.toolCallId);
      }
      return;
    }
    closeOpen(i);
    if (m.role === 'assistant' && typeof m.content !== 'string') {
      for (const part of m.content) {
        if (part.type === 'tool-call' && part.providerExecuted !== true) {
          if (open.has(part.toolCallId) || answered.has(part.toolCallId)) {
            problems.push({ index: i, message: `tool call id ${part.toolCallId} is used twice` });
          }
          open.set(part.toolCallId, i);
        }
      }
    }
  });
  closeOpen(messages.length);
  return problems;
}

/** Throws when the tool call/result pairs of `messages` are not valid. */
export function assertToolPairs(messages: readonly ModelMessage[], context: string): void {
  const problems = validateToolPairs(messages);
  if (problems.length > 0) {
    throw new AgentCoreError(
      'compaction-failed',
      `${context}: invalid tool call/result pairs: ${problems
        .slice(0, 3)
        .map((p) => `#${p.index} ${p.message}`)
        .join('; ')}`,
    );
  }
}

/** Start indices of the rounds: each user message starts one (index 0 also starts one). */
export function roundStarts(messages: readonly ModelMessage[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < messages.length; i++) {
    if (i === 0 || (messages[i] as ModelMessage).role === 'user') starts.push(i);
  }
  return starts;
}

type ContentPart = Exclude<ModelMessage['content'], string>[number];

/** A part's text in a preview (tool calls and results as placeholders), or undefined for parts without any. */
function partText(part: ContentPart): string | undefined {
  if (part.type === 'text' || part.type === 'reasoning') return part.text;
  if (part.type === 'tool-call') return `[tool call ${part.toolName}]`;
  if (part.type === 'tool-result') return `[tool result ${part.toolName}]`;
  return undefined;
}

/** The text of a message (tool calls and results as placeholders); stops once it has `limit` characters. */
function textOf(m: ModelMessage, limit = Number.POSITIVE_INFINITY): string {
  if (typeof m.content === 'string') return m.content.length > limit ? m.content.slice(0, limit) : m.content;
  if (m.content.length === 1) {
    const only = partText(m.content[0] as (typeof m.content)[number]) ?? '';
    return only.length > limit ? only.slice(0, limit) : only;
  }
  const out: string[] = [];
  let n = 0;
  for (const part of m.content) {
    const t = partText(part);
    if (t === undefined) continue;
    out.push(t);
    n += t.length + 1;
    if (n > limit) break;
  }
  const joined = out.join(' ');
  return joined.length > limit ? joined.slice(0, limit) : joined;
}

const PREVIEW_CHARS = 200;
/** Whitespace other than the plain space (what `\s` matches, minus U+0020). */
const OTHER_SPACE = /[^\S ]/;

/**
 * True when collapsing whitespace would not change `raw`: no whitespace run, no whitespace but plain spaces, none at
 * either end (the same answer as `/\s\s|[^\S ]|^\s|\s$/` failing, with native searches instead of a four-way scan).
 */
export function isCollapsed(raw: string): boolean {
  const n = raw.length;
  if (n === 0) return true;
  if (raw.charCodeAt(0) === 32 || raw.charCodeAt(n - 1) === 32 || raw.includes('  ')) return false;
  return !OTHER_SPACE.test(raw);
}

/**
 * The first 200 characters of a message's text with whitespace collapsed. Reads a bounded prefix: a dropped
 * 30 KB tool result costs as much as a short message (the full text only when the prefix is mostly blank).
 */
function previewOf(m: ModelMessage): string {
  const limit = PREVIEW_CHARS * 4;
  const raw = textOf(m, limit);
  // Most messages are short and already single-spaced: nothing to collapse, nothing to cut.
  if (raw.length <= PREVIEW_CHARS && isCollapsed(raw)) return raw;
  let text = raw.replace(/\s+/g, ' ').trim();
  if (raw.length >= limit && text.length <= PREVIEW_CHARS) text = textOf(m).replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

/** Shared by every dropped message without tool ids (most of them): one array fewer per dropped message. */
const NO_IDS: readonly string[] = Object.freeze([]);

function toolIdsOf(m: ModelMessage): readonly string[] {
  if (typeof m.content === 'string') return NO_IDS;
  let ids: string[] | undefined;
  for (const part of m.content) {
    if (part.type !== 'tool-call' && part.type !== 'tool-result') continue;
    if (ids === undefined) ids = [];
    ids.push(part.toolCallId);
  }
  return ids ?? NO_IDS;
}

/** Fills `out` with the estimate of each message. */
function estimatesOf(messages: readonly ModelMessage[], out: Float64Array): Float64Array {
  for (let i = 0; i < messages.length; i++) out[i] = estimateMessageTokens(messages[i] as ModelMessage);
  return out;
}

/** The dropped record of a whole message. */
export function droppedMessage(
  m: ModelMessage,
  index: number,
  tokens = estimateMessageTokens(m),
): DroppedItem {
  return {
    kind: 'message',
    index,
    role: m.role,
    tokens,
    preview: previewOf(m),
    toolCallIds: toolIdsOf(m),
  };
}

/** Clears large tool results before the last `keepRecentTurns` rounds. */
export function snipToolResults(
  messages: readonly ModelMessage[],
  keepRecentTurns: number,
  overChars: number,
): { messages: ModelMessage[]; dropped: DroppedItem[] } {
  const starts = roundStarts(messages);
  const protectFrom = starts.length > keepRecentTurns ? (starts[starts.length - keepRecentTurns] ?? 0) : 0;
  const dropped: DroppedItem[] = [];
  const out = messages.map((m, i): ModelMessage => {
    if (i >= protectFrom || m.role !== 'tool') return m;
    let changed = false;
    const content = m.content.map((part) => {
      if (part.type !== 'tool-result') return part;
      const chars = toolOutputChars(part.output);
      if (chars <= overChars) return part;
      if (part.output.type === 'text' && part.output.value === CLEARED_TOOL_RESULT) return part;
      changed = true;
      dropped.push({
        kind: 'tool-result',
        index: i,
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        tokens: Math.ceil((chars - CLEARED_TOOL_RESULT.length) / 4),
      });
      return { ...part, output: { type: 'text' as const, value: CLEARED_TOOL_RESULT } };
    });
    return changed ? ({ ...m, content } as ToolModelMessage) : m;
  });
  return { messages: out, dropped };
}

/** Renders messages as a plain transcript for the summary request (tool results capped). */
export function transcriptOf(messages: readonly ModelMessage[], maxResultChars = 2000): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') {
      lines.push(`${m.role.toUpperCase()}: ${m.content}`);
      continue;
    }
    for (const part of m.content) {
      switch (part.type) {
        case 'text':
          lines.push(`${m.role.toUpperCase()}: ${part.text}`);
          break;
        case 'reasoning':
          break;
        case 'tool-call': {
          let input: string;
          try {
            input = JSON.stringify(part.input) ?? '';
          } catch {
            input = '[unserialisable input]';
          }
          lines.push(`TOOL CALL ${part.toolName} ${input.slice(0, maxResultChars)}`);
          break;
        }
        case 'tool-result': {
          const o = part.output as { type?: string; value?: unknown };
          const v = typeof o.value === 'string' ? o.value : JSON.stringify(o.value ?? null);
          const capped = v.length > maxResultChars ? `${v.slice(0, maxResultChars)}… [truncated]` : v;
          lines.push(
            `TOOL RESULT ${part.toolName}${o.type?.startsWith('error') ? ' (error)' : ''}: ${capped}`,
          );
          break;
        }
        default:
          lines.push(`${m.role.toUpperCase()}: [${part.type}]`);
      }
    }
  }
  return lines.join('\n');
}

/** The user message that carries a summary. */
export function summaryMessage(summary: string): ModelMessage {
  return {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `<conversation-summary>\nThe earlier part of this conversation was compacted. Summary:\n${summary}\n</conversation-summary>`,
      },
    ],
  };
}

/** Summarises messages through a model; supplied by the client. */
export type Summarizer = (
  messages: readonly ModelMessage[],
  signal: AbortSignal | undefined,
  instructions?: string,
) => Promise<string>;

/** Inputs of one compaction run. */
export interface CompactionRun {
  /** The history to compact (provider-facing, including the pending turn). */
  readonly messages: readonly ModelMessage[];
  /** Token count before (estimate calibrated by the provider's figure). */
  readonly beforeTokens: number;
  /** Estimates the tokens of a candidate history with the same calibration. */
  readonly estimate: (messages: readonly ModelMessage[]) => number;
  /** Why this run happens. */
  readonly reason: string;
  /** Skip the snip and go straight to a summary (manual /compact). */
  readonly force?: boolean;
  /** Abort signal of the turn. */
  readonly signal?: AbortSignal | undefined;
  /** The user's instructions for the summary (`/compact <instructions>`): what to keep, what to focus on. */
  readonly instructions?: string | undefined;
}

/** Result of one compaction run. */
export interface CompactionOutcome {
  /** The new history (the input itself when nothing changed). */
  readonly messages: readonly ModelMessage[];
  /** The decision to emit. */
  readonly decision: CompactionDecision;
}

/** Resolved compaction settings. */
interface ResolvedCompaction {
  readonly enabled: boolean;
  readonly keepRecentTurns: number;
  readonly clearToolResultsOver: number;
  readonly maxConsecutiveFailures: number;
  readonly summaryPrompt: string;
}

/** Fills defaults and validates compaction settings (`false` disables automatic compaction). */
export function resolveCompaction(options: CompactionOptions | false | undefined): ResolvedCompaction {
  const o = options === false ? { enabled: false } : (options ?? {});
  const keepRecentTurns = o.keepRecentTurns ?? 2;
  const clearToolResultsOver = o.clearToolResultsOver ?? 2000;
  const maxConsecutiveFailures = o.maxConsecutiveFailures ?? 3;
  for (const [k, v] of [
    ['keepRecentTurns', keepRecentTurns],
    ['clearToolResultsOver', clearToolResultsOver],
    ['maxConsecutiveFailures', maxConsecutiveFailures],
  ] as const) {
    if (!Number.isInteger(v) || v < (k === 'maxConsecutiveFailures' ? 1 : 0)) {
      throw new AgentCoreError('invalid-options', `compaction.${k} must be a whole number, got ${String(v)}`);
    }
  }
  return {
    enabled: o.enabled ?? true,
    keepRecentTurns,
    clearToolResultsOver,
    maxConsecutiveFailures,
    summaryPrompt: o.summaryPrompt ?? DEFAULT_SUMMARY_PROMPT,
  };
}

/**
 * The compaction engine of one client: snip, summary, full summary, prompt-too-long recovery and a
 * circuit breaker that stops automatic attempts after repeated failures.
 */
export class Compactor {
  /** Consecutive failed automatic runs. */
  private failures = 0;
  /** Resolved settings. */
  readonly settings: ResolvedCompaction;
  /** The auto-compaction threshold. */
  readonly threshold: number;
  private readonly summarize: Summarizer;

  /** Creates the engine for one client. */
  constructor(settings: ResolvedCompaction, threshold: number, summarize: Summarizer) {
    this.settings = settings;
    this.threshold = threshold;
    this.summarize = summarize;
  }

  /** True when the breaker is open (too many consecutive failures). */
  get circuitOpen(): boolean {
    return this.failures >= this.settings.maxConsecutiveFailures;
  }

  /** Consecutive failures so far. */
  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Restores the breaker state (sessions). */
  setFailures(n: number): void {
    this.failures = Math.max(0, Math.floor(n));
  }

  private decision(
    action: CompactionAction,
    run: CompactionRun,
    afterTokens: number,
    dropped: readonly DroppedItem[],
    reason = run.reason,
  ): CompactionDecision {
    return {
      action,
      reason,
      beforeTokens: run.beforeTokens,
      afterTokens,
      threshold: this.threshold,
      dropped,
    };
  }

  /** Runs snip -> summary -> full summary until the history fits under the threshold. */
  async compact(run: CompactionRun): Promise<CompactionOutcome> {
    if (!run.force && this.circuitOpen) {
      return {
        messages: run.messages,
        decision: this.decision(
          'skipped',
          run,
          run.beforeTokens,
          [],
          `${run.reason}; circuit breaker open after ${this.failures} consecutive failures`,
        ),
      };
    }
    const { keepRecentTurns, clearToolResultsOver } = this.settings;
    let dropped: DroppedItem[] = [];
    let current: readonly ModelMessage[] = run.messages;
    try {
      if (!run.force) {
        const snipped = snipToolResults(current, keepRecentTurns, clearToolResultsOver);
        if (snipped.dropped.length > 0) {
          assertToolPairs(snipped.messages, 'snip');
          current = snipped.messages;
          dropped = snipped.dropped;
          const after = run.estimate(current);
          if (after < this.threshold) return this.success('snip', run, current, after, dropped);
        }
      }
      const starts = roundStarts(current);
      // Summary: older rounds summarised, the last `keepRecentTurns` rounds kept verbatim.
      if (starts.length > keepRecentTurns && keepRecentTurns > 0) {
        const cut = starts[starts.length - keepRecentTurns] ?? 0;
        if (cut > 0) {
          const candidate = await this.summarizeBefore(
            current,
            cut,
            run.messages,
            dropped,
            run.signal,
            run.instructions,
          );
          const after = run.estimate(candidate.messages);
          if (after < this.threshold || run.force) {
            return this.success('summary', run, candidate.messages, after, candidate.dropped);
          }
        }
      }
      // Full summary: everything but the last user round.
      const lastStart = starts[starts.length - 1] ?? 0;
      if (lastStart === 0)
        throw new AgentCoreError('compaction-failed', 'nothing older than the last turn to compact');
      const full = await this.summarizeBefore(
        current,
        lastStart,
        run.messages,
        dropped,
        run.signal,
        run.instructions,
      );
      const after = run.estimate(full.messages);
      if (after >= this.threshold && !run.force) {
        this.failures++;
        return {
          messages: full.messages,
          decision: this.decision(
            'full-summary',
            run,
            after,
            full.dropped,
            `${run.reason}; still over the threshold after a full summary`,
          ),
        };
      }
      return this.success('full-summary', run, full.messages, after, full.dropped);
    } catch (e) {
      if (run.signal?.aborted) throw e;
      this.failures++;
      return {
        messages: run.messages,
        decision: this.decision('failed', run, run.beforeTokens, [], `${run.reason}; ${errorMessage(e)}`),
      };
    }
  }

  private success(
    action: CompactionAction,
    run: CompactionRun,
    messages: readonly ModelMessage[],
    after: number,
    dropped: readonly DroppedItem[],
  ): CompactionOutcome {
    this.failures = 0;
    return { messages, decision: this.decision(action, run, after, dropped) };
  }

  private async summarizeBefore(
    current: readonly ModelMessage[],
    cut: number,
    original: readonly ModelMessage[],
    priorDropped: readonly DroppedItem[],
    signal: AbortSignal | undefined,
    instructions: string | undefined,
  ): Promise<{ messages: ModelMessage[]; dropped: DroppedItem[] }> {
    const older = current.slice(0, cut);
    const summary = (await this.summarize(older, signal, instructions)).trim();
    if (summary === '') throw new AgentCoreError('compaction-failed', 'the model returned an empty summary');
    const messages = [summaryMessage(summary), ...current.slice(cut)];
    assertToolPairs(messages, 'summary');
    // Dropped whole messages are recorded from the original history; snips inside them are subsumed.
    const dropped: DroppedItem[] = priorDropped.filter((d) => d.index >= cut);
    for (let i = 0; i < cut; i++) {
      const m = original[i];
      if (m) dropped.push(droppedMessage(m, i));
    }
    dropped.sort((a, b) => a.index - b.index);
    return { messages, dropped };
  }

  /**
   * Prompt-too-long recovery: drops whole oldest rounds (never the last one): at least half of the
   * older rounds, then more until the estimate is under the threshold (and under the provider's own
   * figures when its message has them). One pass: suffix sums over the cached message estimates, so
   * the cost is linear in the history. `overheadTokens` is what every request pays besides its messages
   * (system prompt, tool definitions); `known`, when given, is each message's estimate by index (what the rejected
   * request counted), read instead of looking each message up. Returns `null` when nothing can be dropped.
   */
  dropOldest(
    messages: readonly ModelMessage[],
    overheadTokens: number,
    beforeTokens: number,
    providerMessage = '',
    known?: ArrayLike<number>,
  ): CompactionOutcome | null {
    const starts = roundStarts(messages);
    if (starts.length < 2) return null;
    const droppable = starts.length - 1;
    // suffix[i] = tokens of messages[i..]; the estimate of messages.slice(i) is overhead + suffix[i].
    const n = messages.length;
    const tokens =
      known !== undefined && known.length === n ? known : estimatesOf(messages, new Float64Array(n));
    const suffix = new Float64Array(n + 1);
    for (let i = n - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] as number) + (tokens[i] as number);
    const estimateFrom = (i: number) => overheadTokens + (suffix[i] ?? 0);
    // When the provider says "N tokens > M", aim for M/N of our estimate with a 10% margin.
    const figures = /(\d[\d,]*)\s*tokens?\s*>\s*(\d[\d,]*)/i.exec(providerMessage.slice(0, 10_000));
    const all = estimateFrom(0);
    let target = this.threshold;
    if (figures) {
      const actual = Number(figures[1]?.replace(/,/g, ''));
      const limit = Number(figures[2]?.replace(/,/g, ''));
      if (actual > 0 && limit > 0 && limit < actual)
        target = Math.min(target, Math.floor(all * (limit / actual) * 0.9));
    }
    let k = Math.ceil(droppable / 2);
    while (k < droppable && estimateFrom(starts[k] ?? 0) >= target) k++;
    const cut = starts[k] ?? 0;
    const kept = messages.slice(cut);
    assertToolPairs(kept, 'drop-oldest');
    const dropped: DroppedItem[] = [];
    for (let i = 0; i < cut; i++) {
      const m = messages[i];
      if (m) dropped.push(droppedMessage(m, i, tokens[i]));
    }
    return {
      messages: kept,
      decision: {
        action: 'drop-oldest',
        reason: 'the provider rejected the prompt as too long',
        beforeTokens,
        afterTokens: estimateFrom(cut),
        threshold: this.threshold,
        dropped,
      },
    };
  }
}
