import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { AskCallback, PermissionMode, ToolPolicy } from '@codeagent/permission-gate';
import type { LanguageModel } from 'ai';
import { type CompactionOptions, resolveCompaction } from './compaction.js';
import { type RetryOptions, resolveRetry } from './retry.js';
import type { Pricing } from './session-state.js';
import type { SkillsOptions } from './skill-wiring.js';
import type { AgentTool } from './tool.js';
import type { DisplayFunction } from './tool-runner.js';
import { type TokenThresholds } from './usage.js';
/** Options of {@link createClient}. */
export interface CreateClientOptions {
    /** The AI SDK language model (a provider model object, specification v3). */
    readonly model: LanguageModel;
    /**
     * `true` (default): the client installs its default permission gate (mode `permissionMode`, `toolPolicy`,
     * `ask`) and wires skills (`use_skill`, the hint, slash commands). `false`: harness-only, no tool besides
     * `tools` and no gate until the host calls `installPermissionGate(client, ...)`. It never adds the
     * built-in coding tools: those come from `@codeagent/tools` (`builtinTools()`), passed in `tools`.
     */
    readonly registerTools?: boolean;
    /** Mode of the default gate; default `default`. */
    readonly permissionMode?: PermissionMode;
    /** Working directory of the session; default `process.cwd()`. */
    readonly cwd?: string;
    /** Tools to attach. */
    readonly tools?: readonly AgentTool<unknown>[];
    /** Policy of the default gate (`sets`, `capabilities`, `overrides`). */
    readonly toolPolicy?: ToolPolicy;
    /** Approval callback of the default gate. */
    readonly ask?: AskCallback;
    /**
     * Model requests allowed in one turn (every tool round trip is one more request); default 100. The
     * contract's name; {@link CreateClientOptions.maxModelRequests} says the same and wins when both are given.
     */
    readonly maxTurns?: number;
    /** Model requests allowed in one turn; default 100 (same as `maxTurns`). */
    readonly maxModelRequests?: number;
    /** Compaction settings, or `false` to turn automatic compaction off. */
    readonly compaction?: CompactionOptions | false;
    /** Projection of tool results into host display data. */
    readonly display?: DisplayFunction;
    /** System prompt. */
    readonly system?: string;
    /** The model's context window in tokens; default 200000. */
    readonly contextWindow?: number;
    /** The model's max output tokens (for the thresholds); default 32000. */
    readonly maxOutputTokens?: number;
    /** Prices for `costLast`; without them `costLast` is `null`. */
    readonly pricing?: Pricing;
    /** Retry policy for rate limits and network errors. */
    readonly retry?: RetryOptions;
    /** Skills settings (`registerTools: true` only), or `false` for no `use_skill` tool and no hint. */
    readonly skills?: SkillsOptions | false;
    /** Heartbeat period in ms; default 100. */
    readonly tickIntervalMs?: number;
}
/** The checked options with defaults filled in. */
export interface ResolvedClientOptions {
    readonly model: LanguageModelV3;
    readonly cwd: string;
    readonly maxModelRequests: number;
    readonly contextWindow: number;
    readonly thresholds: TokenThresholds;
    readonly tickMs: number;
    readonly system: string | undefined;
    readonly display: DisplayFunction | undefined;
    readonly pricing: Pricing | undefined;
    readonly retry: ReturnType<typeof resolveRetry>;
    readonly compaction: ReturnType<typeof resolveCompaction>;
    readonly permissionMode: PermissionMode;
    readonly registerTools: boolean;
}
/** Validates {@link CreateClientOptions}; throws {@link AgentCoreError} `invalid-options` naming the option. */
export declare function resolveClientOptions(options: CreateClientOptions): ResolvedClientOptions;
//# sourceMappingURL=options.d.ts.map