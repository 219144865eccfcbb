import { type PermissionGate, type PermissionGateTarget, type PermissionMode } from '@codeagent/permission-gate';
import type { PresenterIssue } from '@codeagent/render-intent';
import type { ModelMessage } from 'ai';
import { type CompactionDecision } from './compaction.js';
import type { ToolResultEvent } from './events.js';
import type { StreamInput } from './input.js';
import { type CreateClientOptions } from './options.js';
import type { ToolRecord } from './session.js';
import { type RestoredState } from './session-state.js';
import { type SlashExpansion } from './skill-wiring.js';
import type { AgentTool } from './tool.js';
import { TurnRunner } from './turn.js';
import type { TokenThresholds, Usage } from './usage.js';
/** The turn runner of a client made by `createClient`, or `undefined` for anything else. */
export declare function turnRunnerOf(client: unknown): TurnRunner | undefined;
/** Restores validated session state into a fresh client (`loadSession`). */
export declare function restoreSession(client: CodeagentClient, state: RestoredState): void;
/**
 * One user session of the agent. A facade over three rooms: the session (`session-state.ts`: history,
 * tool records, compaction log, save/restore), the tool runner (`tool-runner.ts`: gate, approvals, abort
 * race, three channels, cards) and the turn runner (`turn.ts`). Create with {@link createClient}; drive
 * turns with `stream` / `streamEvents`. Never share a client between users. Implements the permission
 * gate's target hook, so `installPermissionGate(client, ...)` works.
 */
export declare class CodeagentClient implements PermissionGateTarget {
    #private;
    /** The session's working directory. */
    readonly cwd: string;
    /** Model requests allowed per turn (the contract's name; see {@link CodeagentClient.maxModelRequests}). */
    readonly maxTurns: number;
    /** Model requests allowed per turn. */
    readonly maxModelRequests: number;
    /** The context window in tokens. */
    readonly contextWindow: number;
    /** The token levels derived from the window and the max output. */
    readonly thresholds: TokenThresholds;
    /** Use {@link createClient}. */
    constructor(options: CreateClientOptions);
    /** The provider-facing history (a frozen snapshot; treat its message objects as read-only). */
    get messages(): readonly ModelMessage[];
    /** @deprecated Use {@link CodeagentClient.messages}; the same snapshot. */
    get history(): readonly ModelMessage[];
    /** True while a turn runs. */
    get busy(): boolean;
    /** Every compaction decision of this session, oldest first (a fresh copy, like {@link CodeagentClient.toolResults}). */
    compactionDecisions(): readonly CompactionDecision[];
    /** @deprecated Use {@link CodeagentClient.compactionDecisions}; the same copy. */
    get compactions(): readonly CompactionDecision[];
    /** The stored tool results (display copies), in call order (a fresh array). */
    toolResults(): readonly ToolResultEvent[];
    /** The stored tool records (arguments, full result, both cards), in call order (a fresh array). */
    toolRecords(): readonly ToolRecord[];
    /** The usage record of the current history (what `onUsage` would report now, with no turn cost). */
    usage(): Usage;
    /** Forgets the conversation (history, tool records, compactions); tools, gate and grants stay. */
    clear(): void;
    /**
     * Manual compaction (`/compact [instructions]`): summarises older turns now, whatever the token count; `instructions`
     * bias the summary (what to keep, what to focus on), as in Claude Code.
     */
    compact(options?: {
        signal?: AbortSignal;
        instructions?: string;
    }): Promise<CompactionDecision>;
    /** Serialises the session to versioned JSON (see `loadSession`); session-scoped grants are not saved. */
    save(): string;
    /** Names of the attached tools, in registration order. */
    get toolNames(): readonly string[];
    /** Presenter failures that were contained (for diagnostics; at most 100 kept). */
    get presenterIssues(): readonly PresenterIssue[];
    /** Attaches a tool (the gate learns its capability); throws on a duplicate name or while a turn runs. */
    registerTool<Args>(tool: AgentTool<Args>): void;
    /** Installs or removes the permission gate (the hook `installPermissionGate` uses). */
    setPermissionGate(gate: PermissionGate | null): void;
    /** The installed permission gate, or `null`. */
    getPermissionGate(): PermissionGate | null;
    /**
     * Resolves when call `id` of the running turn is through its precheck (the tool's read-only check before the
     * gate asks): `true` when it goes on to the permission gate, `false` when the precheck refused it (its result is
     * the refusal) or the turn ended first. Prechecks start as soon as a call's `tool-request` is delivered, while the
     * gate asks one call at a time; a host that shows approvals ahead of the gate's `ask` waits for this, so a call
     * known to fail is never put to the user.
     */
    prechecked(id: string): Promise<boolean>;
    /** The permission mode: the installed gate's, else the one the next default gate gets. */
    get permissionMode(): PermissionMode;
    /**
     * Switches the permission mode: of the installed gate (the one place it is kept), else of the next
     * gate. A host calls only this; it need not also reconfigure the gate.
     */
    setPermissionMode(mode: PermissionMode): void;
    /**
     * The slash-command expansion every turn applies to its input (`registerTools: true` with slash commands
     * on): `/name args` naming a discovered skill becomes the command plus the skill's prompt. Hosts call it
     * to tell a skill from an unknown command before running the turn with the unexpanded input.
     */
    expandSlashCommand(input: StreamInput): Promise<SlashExpansion>;
}
/** Creates a client (one per user session). See {@link CreateClientOptions}. */
export declare function createClient(options: CreateClientOptions): CodeagentClient;
//# sourceMappingURL=client.d.ts.map