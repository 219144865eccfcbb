/**
 * Computes the level table of CONTRACTS.md §3 for a context window and a max output size. Each margin is the
 * contract's fixed number or a fraction, whichever is smaller, so the levels scale with small windows and stay
 * positive and ordered (`0 < warning < error < threshold < blocking < effective`) for any window of 4,096 tokens or
 * more. Compaction and blocking levels are the fixed-margin ones from 40k tokens up, warning and error from about
 * 110k tokens up.
 */
export function tokenThresholds(contextWindow, maxOutputTokens) {
    const finite = (n) => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0);
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
export function warningStateFor(nTokens, t) {
    const percentLeft = t.threshold > 0
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
export function estimateTextTokens(text) {
    return Math.ceil(text.length / CHARS_PER_TOKEN);
}
function jsonLength(value) {
    if (typeof value === 'string')
        return value.length;
    try {
        return JSON.stringify(value)?.length ?? 0;
    }
    catch {
        return 0;
    }
}
/** Per-message estimates, keyed by identity: the loop never mutates a message, it replaces it. */
const estimates = new WeakMap();
/** Estimates the tokens of one message from its structure (text, tool inputs, tool outputs, media); cached. */
export function estimateMessageTokens(message) {
    let n = estimates.get(message);
    if (n === undefined) {
        n = measureMessage(message);
        estimates.set(message, n);
    }
    return n;
}
function measureMessage(message) {
    let chars = 0;
    let media = 0;
    const content = message.content;
    if (typeof content === 'string') {
        chars += content.length;
    }
    else {
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
export function toolOutputChars(output) {
    if (typeof output !== 'object' || output === null)
        return jsonLength(output);
    const o = output;
    if ((o.type === 'text' || o.type === 'error-text') && typeof o.value === 'string')
        return o.value.length;
    return jsonLength(o.value ?? output);
}
/** Estimates the tokens of a request: system prompt, messages and tool definitions. */
export function estimateRequestTokens(messages, system, toolTokens) {
    let total = toolTokens + (system ? estimateTextTokens(system) + MESSAGE_OVERHEAD : 0);
    for (const m of messages)
        total += estimateMessageTokens(m);
    return total;
}
//# sourceMappingURL=usage.js.map