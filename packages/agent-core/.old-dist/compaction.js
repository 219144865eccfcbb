import { AgentCoreError, errorMessage } from './errors.js';
import { estimateMessageTokens, toolOutputChars } from './usage.js';
/** Every compaction action, in a stable order. */
export const COMPACTION_ACTIONS = Object.freeze([
    'snip',
    'summary',
    'full-summary',
    'drop-oldest',
    'failed',
    'skipped',
]);
/** The placeholder that replaces a cleared tool result. */
export const CLEARED_TOOL_RESULT = '[Old tool result content cleared]';
/** Adds the user's own instructions (`/compact <instructions>`) to the summary request's system prompt. */
export function summaryPromptWith(prompt, instructions) {
    const extra = instructions?.trim();
    return extra ? `${prompt}\n\nThe user asked for this summary: ${extra}` : prompt;
}
/** The default instructions of the summary request. */
export const DEFAULT_SUMMARY_PROMPT = 'You are compacting a conversation between a user and a coding agent so it can continue within a smaller context. ' +
    'Write a faithful, dense summary: the user goals and constraints, decisions taken, files and commands involved, ' +
    'results of tool calls that still matter, open problems and the next steps. Do not invent anything. ' +
    'Answer with the summary only.';
/**
 * Checks that every tool call is answered by exactly one tool result in the tool message(s) that follow
 * it, and that every tool result answers an earlier call. Returns the problems found (empty when valid).
 */
export function validateToolPairs(messages) {
    const problems = [];
    let open = new Map();
    const answered = new Set();
    const closeOpen = (at) => {
        for (const [id, idx] of open)
            problems.push({ index: idx, message: `tool call ${id} has no result before message ${at}` });
        open = new Map();
    };
    messages.forEach((m, i) => {
        if (m.role === 'tool') {
            for (const part of m.content) {
                if (part.type !== 'tool-result')
                    continue;
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
export function assertToolPairs(messages, context) {
    const problems = validateToolPairs(messages);
    if (problems.length > 0) {
        throw new AgentCoreError('compaction-failed', `${context}: invalid tool call/result pairs: ${problems
            .slice(0, 3)
            .map((p) => `#${p.index} ${p.message}`)
            .join('; ')}`);
    }
}
/** Start indices of the rounds: each user message starts one (index 0 also starts one). */
export function roundStarts(messages) {
    const starts = [];
    messages.forEach((m, i) => {
        if (m.role === 'user' || i === 0) {
            if (starts[starts.length - 1] !== i)
                starts.push(i);
        }
    });
    return starts;
}
/** A part's text in a preview (tool calls and results as placeholders), or undefined for parts without any. */
function partText(part) {
    if (part.type === 'text' || part.type === 'reasoning')
        return part.text;
    if (part.type === 'tool-call')
        return `[tool call ${part.toolName}]`;
    if (part.type === 'tool-result')
        return `[tool result ${part.toolName}]`;
    return undefined;
}
/** The text of a message (tool calls and results as placeholders); stops once it has `limit` characters. */
function textOf(m, limit = Number.POSITIVE_INFINITY) {
    if (typeof m.content === 'string')
        return m.content.length > limit ? m.content.slice(0, limit) : m.content;
    if (m.content.length === 1) {
        const only = partText(m.content[0]) ?? '';
        return only.length > limit ? only.slice(0, limit) : only;
    }
    const out = [];
    let n = 0;
    for (const part of m.content) {
        const t = partText(part);
        if (t === undefined)
            continue;
        out.push(t);
        n += t.length + 1;
        if (n > limit)
            break;
    }
    const joined = out.join(' ');
    return joined.length > limit ? joined.slice(0, limit) : joined;
}
const PREVIEW_CHARS = 200;
/** Text the preview would change: a whitespace run, a non-space whitespace, or whitespace at either end. */
const NOT_COLLAPSED = /\s\s|[^\S ]|^\s|\s$/;
/**
 * The first 200 characters of a message's text with whitespace collapsed. Reads a bounded prefix: a dropped
 * 30 KB tool result costs as much as a short message (the full text only when the prefix is mostly blank).
 */
function previewOf(m) {
    const limit = PREVIEW_CHARS * 4;
    const raw = textOf(m, limit);
    // Most messages are short and already single-spaced: nothing to collapse, nothing to cut.
    if (raw.length <= PREVIEW_CHARS && !NOT_COLLAPSED.test(raw))
        return raw;
    let text = raw.replace(/\s+/g, ' ').trim();
    if (raw.length >= limit && text.length <= PREVIEW_CHARS)
        text = textOf(m).replace(/\s+/g, ' ').trim();
    return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}
/** Shared by every dropped message without tool ids (most of them): one array fewer per dropped message. */
const NO_IDS = Object.freeze([]);
function toolIdsOf(m) {
    if (typeof m.content === 'string')
        return NO_IDS;
    let ids;
    for (const part of m.content) {
        if (part.type !== 'tool-call' && part.type !== 'tool-result')
            continue;
        if (ids === undefined)
            ids = [];
        ids.push(part.toolCallId);
    }
    return ids ?? NO_IDS;
}
/** The dropped record of a whole message. */
export function droppedMessage(m, index, tokens = estimateMessageTokens(m)) {
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
export function snipToolResults(messages, keepRecentTurns, overChars) {
    const starts = roundStarts(messages);
    const protectFrom = starts.length > keepRecentTurns ? (starts[starts.length - keepRecentTurns] ?? 0) : 0;
    const dropped = [];
    const out = messages.map((m, i) => {
        if (i >= protectFrom || m.role !== 'tool')
            return m;
        let changed = false;
        const content = m.content.map((part) => {
            if (part.type !== 'tool-result')
                return part;
            const chars = toolOutputChars(part.output);
            if (chars <= overChars)
                return part;
            if (part.output.type === 'text' && part.output.value === CLEARED_TOOL_RESULT)
                return part;
            changed = true;
            dropped.push({
                kind: 'tool-result',
                index: i,
                toolCallId: part.toolCallId,
                toolName: part.toolName,
                tokens: Math.ceil((chars - CLEARED_TOOL_RESULT.length) / 4),
            });
            return { ...part, output: { type: 'text', value: CLEARED_TOOL_RESULT } };
        });
        return changed ? { ...m, content } : m;
    });
    return { messages: out, dropped };
}
/** Renders messages as a plain transcript for the summary request (tool results capped). */
export function transcriptOf(messages, maxResultChars = 2000) {
    const lines = [];
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
                    let input;
                    try {
                        input = JSON.stringify(part.input) ?? '';
                    }
                    catch {
                        input = '[unserialisable input]';
                    }
                    lines.push(`TOOL CALL ${part.toolName} ${input.slice(0, maxResultChars)}`);
                    break;
                }
                case 'tool-result': {
                    const o = part.output;
                    const v = typeof o.value === 'string' ? o.value : JSON.stringify(o.value ?? null);
                    const capped = v.length > maxResultChars ? `${v.slice(0, maxResultChars)}… [truncated]` : v;
                    lines.push(`TOOL RESULT ${part.toolName}${o.type?.startsWith('error') ? ' (error)' : ''}: ${capped}`);
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
export function summaryMessage(summary) {
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
/** Fills defaults and validates compaction settings (`false` disables automatic compaction). */
export function resolveCompaction(options) {
    const o = options === false ? { enabled: false } : (options ?? {});
    const keepRecentTurns = o.keepRecentTurns ?? 2;
    const clearToolResultsOver = o.clearToolResultsOver ?? 2000;
    const maxConsecutiveFailures = o.maxConsecutiveFailures ?? 3;
    for (const [k, v] of [
        ['keepRecentTurns', keepRecentTurns],
        ['clearToolResultsOver', clearToolResultsOver],
        ['maxConsecutiveFailures', maxConsecutiveFailures],
    ]) {
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
    failures = 0;
    /** Resolved settings. */
    settings;
    /** The auto-compaction threshold. */
    threshold;
    summarize;
    /** Creates the engine for one client. */
    constructor(settings, threshold, summarize) {
        this.settings = settings;
        this.threshold = threshold;
        this.summarize = summarize;
    }
    /** True when the breaker is open (too many consecutive failures). */
    get circuitOpen() {
        return this.failures >= this.settings.maxConsecutiveFailures;
    }
    /** Consecutive failures so far. */
    get consecutiveFailures() {
        return this.failures;
    }
    /** Restores the breaker state (sessions). */
    setFailures(n) {
        this.failures = Math.max(0, Math.floor(n));
    }
    decision(action, run, afterTokens, dropped, reason = run.reason) {
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
    async compact(run) {
        if (!run.force && this.circuitOpen) {
            return {
                messages: run.messages,
                decision: this.decision('skipped', run, run.beforeTokens, [], `${run.reason}; circuit breaker open after ${this.failures} consecutive failures`),
            };
        }
        const { keepRecentTurns, clearToolResultsOver } = this.settings;
        let dropped = [];
        let current = run.messages;
        try {
            if (!run.force) {
                const snipped = snipToolResults(current, keepRecentTurns, clearToolResultsOver);
                if (snipped.dropped.length > 0) {
                    assertToolPairs(snipped.messages, 'snip');
                    current = snipped.messages;
                    dropped = snipped.dropped;
                    const after = run.estimate(current);
                    if (after < this.threshold)
                        return this.success('snip', run, current, after, dropped);
                }
            }
            const starts = roundStarts(current);
            // Summary: older rounds summarised, the last `keepRecentTurns` rounds kept verbatim.
            if (starts.length > keepRecentTurns && keepRecentTurns > 0) {
                const cut = starts[starts.length - keepRecentTurns] ?? 0;
                if (cut > 0) {
                    const candidate = await this.summarizeBefore(current, cut, run.messages, dropped, run.signal, run.instructions);
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
            const full = await this.summarizeBefore(current, lastStart, run.messages, dropped, run.signal, run.instructions);
            const after = run.estimate(full.messages);
            if (after >= this.threshold && !run.force) {
                this.failures++;
                return {
                    messages: full.messages,
                    decision: this.decision('full-summary', run, after, full.dropped, `${run.reason}; still over the threshold after a full summary`),
                };
            }
            return this.success('full-summary', run, full.messages, after, full.dropped);
        }
        catch (e) {
            if (run.signal?.aborted)
                throw e;
            this.failures++;
            return {
                messages: run.messages,
                decision: this.decision('failed', run, run.beforeTokens, [], `${run.reason}; ${errorMessage(e)}`),
            };
        }
    }
    success(action, run, messages, after, dropped) {
        this.failures = 0;
        return { messages, decision: this.decision(action, run, after, dropped) };
    }
    async summarizeBefore(current, cut, original, priorDropped, signal, instructions) {
        const older = current.slice(0, cut);
        const summary = (await this.summarize(older, signal, instructions)).trim();
        if (summary === '')
            throw new AgentCoreError('compaction-failed', 'the model returned an empty summary');
        const messages = [summaryMessage(summary), ...current.slice(cut)];
        assertToolPairs(messages, 'summary');
        // Dropped whole messages are recorded from the original history; snips inside them are subsumed.
        const dropped = priorDropped.filter((d) => d.index >= cut);
        for (let i = 0; i < cut; i++) {
            const m = original[i];
            if (m)
                dropped.push(droppedMessage(m, i));
        }
        dropped.sort((a, b) => a.index - b.index);
        return { messages, dropped };
    }
    /**
     * Prompt-too-long recovery: drops whole oldest rounds (never the last one): at least half of the
     * older rounds, then more until the estimate is under the threshold (and under the provider's own
     * figures when its message has them). One pass: suffix sums over the cached message estimates, so
     * the cost is linear in the history. `overheadTokens` is what every request pays besides its messages
     * (system prompt, tool definitions). Returns `null` when nothing can be dropped.
     */
    dropOldest(messages, overheadTokens, beforeTokens, providerMessage = '') {
        const starts = roundStarts(messages);
        if (starts.length < 2)
            return null;
        const droppable = starts.length - 1;
        // suffix[i] = tokens of messages[i..]; the estimate of messages.slice(i) is overhead + suffix[i].
        const tokens = new Float64Array(messages.length);
        const suffix = new Float64Array(messages.length + 1);
        for (let i = messages.length - 1; i >= 0; i--) {
            tokens[i] = estimateMessageTokens(messages[i]);
            suffix[i] = (suffix[i + 1] ?? 0) + (tokens[i] ?? 0);
        }
        const estimateFrom = (i) => overheadTokens + (suffix[i] ?? 0);
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
        while (k < droppable && estimateFrom(starts[k] ?? 0) >= target)
            k++;
        const cut = starts[k] ?? 0;
        const kept = messages.slice(cut);
        assertToolPairs(kept, 'drop-oldest');
        const dropped = [];
        for (let i = 0; i < cut; i++) {
            const m = messages[i];
            if (m)
                dropped.push(droppedMessage(m, i, tokens[i]));
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
//# sourceMappingURL=compaction.js.map