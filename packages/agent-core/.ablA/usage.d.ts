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
export declare function tokenThresholds(contextWindow: number, maxOutputTokens: number): TokenThresholds;
/** Computes the warning state for `nTokens` against the thresholds. */
export declare function warningStateFor(nTokens: number, t: TokenThresholds): WarningState;
/** Estimates tokens for a string (ceil(chars / 4)). */
export declare function estimateTextTokens(text: string): number;
/** Estimates the tokens of one message from its structure (text, tool inputs, tool outputs, media); cached. */
export declare function estimateMessageTokens(message: ModelMessage): number;
/** Characters of a tool result output as the model would see it. */
export declare function toolOutputChars(output: unknown): number;
/** Estimates the tokens of a request: system prompt, messages and tool definitions. */
export declare function estimateRequestTokens(messages: readonly ModelMessage[], system: string | undefined, toolTokens: number): number;
//# sourceMappingURL=usage.d.ts.map