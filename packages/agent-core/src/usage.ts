import type { ModelMessage } from 'ai';

/** Context-window levels reported with every usage record (CONTRACTS.md §3). */
export interface WarningState {
  /** Percent of the compaction threshold still free, 0..100, rounded. */
  readonly percentLeft: number;
  /** At or above the warning level (`threshold - min(20000, threshold / 4)`). */
  readonly aboveWarning: boolean;
  /** At or above the error level (`threshold - min(10000, threshold / 8)`), a distinct, higher level than the warning. */
  readonly aboveError: boolean;
  /** At or above the auto-compaction threshold. */
  readonly aboveCompact: boolean;
  /** At or above the blocking level (`effective - min(3000, effective / 10)`): a request this large is refused. */
  readonly atBlocking: boolean;
}

/** Usage reported at the end of a turn. */
export interface Usage {
  /** Tokens in the context: max(structural estimate, provider-reported tokens of the last request). */
  readonly nTokens: number;
  /** The model's context window. */
  readonly modelLimit: number;
  /** Threshold flags derived from `nTokens`. */
  readonly warningState: WarningState;
  /** Cost of the last turn in the `pricing` currency, or `null` when no pricing was given. */
  readonly costLast: number | null;
  /** Input tokens the provider billed for this turn (sum over its requests). */
  readonly inputTokens: number;
  /** Output tokens the provider billed for this turn (sum over its requests). */
  readonly outputTokens: number;
}

/** The token levels derived from a context window and a max output size. */
export interface TokenThresholds {
  /** `window - min(maxOutput, 20000, window / 2)`. */
  readonly effective: number;
  /** `effective - min(13000, effective / 3)`: auto-compaction starts here. */
  readonly threshold: number;
  /** `threshold - min(20000, threshold / 4)`. */
  readonly warning: number;
  /** `threshold - min(10000, threshold / 8)`. */
  readonly error: number;
  /** `effective - min(3000, effective / 10)`. */
  readonly blocking: number;
}

/**
 * Computes the level table of CONTRACTS.md §3 for a context window and a max output size. Each margin is the
 * contract's fixed number or a fraction, whichever is smaller, so the levels scale with small windows and stay
 * positive and ordered (`0 < warning < error < threshold < blocking < effective`) for any window of 4,096 tokens or
 * more. Compaction and blocking levels are the fixed-margin ones from 40k tokens up, warning and error from about
 * 110k tokens up.
 */
export function tokenThresholds(contextWindow: number, maxOutputTokens: number): TokenThresholds {
  const finite = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0);
  const window = finite(contextWindow);
  const effective = window - Math.min(finite(maxOutputTokens), 20_000, Math.floor(window / 2));
  const threshold = effective - Math.min(13_000, Math.floor(effective / 3));
  return {
    effective,
    threshold,
    warning: threshold - Math.min(20_000, Math.floor(threshold / 4)),
    error: threshold - Math.min(10_000, Math.floor(threshold / 8)),
    blocking: effective - Math.min(3_000, Math.floor(effective / 10)),
  };
}

/** Computes the warning state for `nTokens` against the thresholds. */
export function warningStateFor(nTokens: number, t: TokenThresholds): WarningState {
  const percentLeft =
    t.threshold > 0
      ? Math.max(0, Math.min(100, Math.round(((t.threshold - nTokens) / t.threshold) * 100)))
      : 0;
  return {
    percentLeft,
    aboveWarning: nTokens >= t.warning,
    aboveError: nTokens >= t.error,
    aboveCompact: nTokens >= t.threshold,
    atBlocking: nTokens >= t.blocking,
  };
}

/** Characters per token of the structural estimate (the usual rough figure for English and code). */
const CHARS_PER_TOKEN = 4;
/** Tokens charged for each message's framing. */
const MESSAGE_OVERHEAD = 4;
/** Tokens charged for an image or file part, whatever its size. */
const MEDIA_TOKENS = 1_600;

/** Estimates tokens for a string (ceil(chars / 4)). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function jsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Per-message estimates, keyed by identity: the loop never mutates a message, it replaces it. */
const estimates = new WeakMap<object, number>();

/** Estimates the tokens of one message from its structure (text, tool inputs, tool outputs, media); cached. */
export function estimateMessageTokens(message: ModelMessage): number {
  let n = estimates.get(message);
  if (n === undefined) {
    n = measureMessage(message);
    estimates.set(message, n);
  }
  return n;
}

function measureMessage(message: ModelMessage): number {
  let chars = 0;
  let media = 0;
  const content = message.content;
  if (typeof content === 'string') {
    chars += content.length;
  } else {
    for (const part of content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          chars += part.text.length;
          break;
        case 'tool-call':
          chars += part.toolName.length + jsonLength(part.input);
          break;
        case 'tool-result':
          chars += part.toolName.length + toolOutputChars(part.output);
          break;
        case 'image':
        case 'file':
          media += MEDIA_TOKENS;
          break;
        default:
          chars += jsonLength(part);
      }
    }
  }
  return MESSAGE_OVERHEAD + media + Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Characters of a tool result output as the model would see it. */
export function toolOutputChars(output: unknown): number {
  if (typeof output !== 'object' || output === null) return jsonLength(output);
  const o = output as { type?: unknown; value?: unknown };
  if ((o.type === 'text' || o.type === 'error-text') && typeof o.value === 'string') return o.value.length;
  return jsonLength(o.value ?? output);
}

/** Estimates the tokens of a request: system prompt, messages and tool definitions. */
export function estimateRequestTokens(
  messages: readonly ModelMessage[],
  system: string | undefined,
  toolTokens: number,
): number {
  let total = toolTokens + (system ? estimateTextTokens(system) + MESSAGE_OVERHEAD : 0);
  for (const m of messages) total += estimateMessageTokens(m);
  return total;
}
