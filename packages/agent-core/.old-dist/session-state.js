import { adaptToolResult, toolResultArtifact } from '@codeagent/artifact-schema';
import { SESSION_FORMAT, SESSION_VERSION } from './session.js';
import { isErrorResult } from './tool-runner.js';
import { splitIntent } from './tool.js';
import { estimateRequestTokens, warningStateFor } from './usage.js';
/**
 * The session room of a client: the provider-facing history, the tool records (display copies), the
 * compaction log, the token bookkeeping, and save/restore. Session-scoped permission grants live in the
 * gate and are never saved.
 */
export class SessionState {
    #messages = [];
    #messagesView = null;
    #records = new Map();
    #compactions = [];
    /** Provider-reported tokens (input + output) of the last model request; 0 after a rewrite. */
    lastReported = 0;
    /** Tokens of summary requests not yet reported in a turn's usage. */
    summaryUsage = { input: 0, output: 0 };
    #overhead;
    #thresholds;
    #contextWindow;
    #pricing;
    constructor(overhead, thresholds, contextWindow, pricing) {
        this.#overhead = overhead;
        this.#thresholds = thresholds;
        this.#contextWindow = contextWindow;
        this.#pricing = pricing;
    }
    /** The history (read-only snapshot, rebuilt only after a change). */
    get messages() {
        this.#messagesView ??= Object.freeze(this.#messages.slice());
        return this.#messagesView;
    }
    /** The live history array (never handed to a host). */
    get history() {
        return this.#messages;
    }
    /** Replaces the history (the loop never mutates a message, it replaces the list). */
    setMessages(messages) {
        this.#messages = messages;
        this.#messagesView = null;
    }
    /** Every compaction decision, oldest first (a copy). */
    get compactions() {
        return this.#compactions.slice();
    }
    /** Records a compaction decision. */
    addCompaction(decision) {
        this.#compactions.push(decision);
    }
    /** Stores the display copy of a finished tool call. */
    addRecord(record) {
        this.#records.set(record.id, record);
    }
    /** The stored tool records, in call order. */
    records() {
        return [...this.#records.values()];
    }
    /** Tokens a request with `messages` would take: system prompt, tool definitions and messages. */
    estimate(messages) {
        const { system, toolTokens } = this.#overhead();
        return estimateRequestTokens(messages, system, toolTokens);
    }
    /** Tokens every request pays besides its messages (system prompt and tool definitions). */
    overheadTokens() {
        return this.estimate([]);
    }
    /** The estimate calibrated by the provider's last figure. */
    countTokens(messages) {
        return Math.max(this.estimate(messages), this.lastReported);
    }
    /** The usage record of the current history with a turn's billed tokens. */
    usage(inputTokens, outputTokens) {
        const nTokens = this.countTokens(this.#messages);
        const p = this.#pricing;
        return {
            nTokens,
            modelLimit: this.#contextWindow,
            warningState: warningStateFor(nTokens, this.#thresholds),
            costLast: p ? (inputTokens * p.inputPerMillion + outputTokens * p.outputPerMillion) / 1_000_000 : null,
            inputTokens,
            outputTokens,
        };
    }
    /** Forgets the conversation (history, records, compactions, token figures). */
    clear() {
        this.setMessages([]);
        this.#records = new Map();
        this.#compactions = [];
        this.lastReported = 0;
    }
    /** The saved form of the session. */
    data(cwd, permissionMode, compactionFailures) {
        return {
            format: SESSION_FORMAT,
            version: SESSION_VERSION,
            savedAt: new Date().toISOString(),
            cwd,
            permissionMode,
            messages: this.#messages,
            toolResults: [...this.#records.values()],
            compactions: this.#compactions,
            compactionFailures,
            lastReportedTokens: this.lastReported,
        };
    }
    /** Restores validated state; tool results are adapted (display copy only) and their cards re-presented. */
    restore(state, tools) {
        this.setMessages(state.messages.slice());
        this.#compactions = state.compactions.slice();
        this.lastReported = state.lastReportedTokens;
        tools.resetPresenter();
        this.#records = new Map();
        for (const r of state.records) {
            const result = adaptToolResult(r.result);
            const isError = r.isError || isErrorResult(result, toolResultArtifact(result, { version: null }));
            const callView = tools.presentCall(r.id, r.name, splitIntent(r.arguments).args, false);
            this.#records.set(r.id, tools.presentResult(r.id, r.name, r.arguments, callView, result, isError));
        }
    }
}
//# sourceMappingURL=session-state.js.map