import type { AgentEvent } from './events.js';
import type { StreamInput } from './input.js';
import { type AgentTool } from './tool.js';
/** Skills settings of a client with `registerTools: true`. */
export interface SkillsOptions {
    /** Extra skill directories from the host (searched last). */
    readonly dirs?: readonly string[];
    /** Home directory for user-level skills (default: the OS home). */
    readonly homeDir?: string;
    /** Append the `<available_skills>` hint to the system prompt; default true. */
    readonly hint?: boolean;
    /** Expand `/name args` input into the skill's prompt when `name` is a discovered skill; default true. */
    readonly slashCommands?: boolean;
}
/**
 * What `client.expandSlashCommand` made of an input: `skill` (the input now carries the skill's prompt);
 * `none` (not a slash command, or slash commands are off); `unknown` (`/name` names no discovered skill:
 * a host command such as `/compact`, or a typo; `message` lists the skills there are); `failed` (the skill
 * exists but could not be loaded). Only `skill` changes the input; a turn sends the others unchanged.
 */
export type SlashExpansion = {
    readonly kind: 'skill';
    readonly name: string;
    readonly input: StreamInput;
} | {
    readonly kind: 'none';
    readonly input: StreamInput;
} | {
    readonly kind: 'unknown' | 'failed';
    readonly name: string;
    readonly message: string;
    readonly input: StreamInput;
};
/**
 * The skills wiring of a `registerTools: true` client: the `use_skill` tool, the `<available_skills>`
 * hint of the system prompt, and the one slash-command expansion every host path goes through.
 */
export declare class SkillWiring {
    #private;
    constructor(cwd: string, options: SkillsOptions | undefined);
    /** The `use_skill` tool over this client's discovery. */
    useSkillTool(): AgentTool<unknown>;
    /** The hint text, once loaded (`''` when there is none or it failed). */
    get hintText(): string | undefined;
    /** Loads the hint before the first turn. */
    loadHint(): Promise<void>;
    /**
     * Expands `/name args` (a string, or the first text part of content-part input) naming a discovered
     * skill into the command followed by `<skill name="…">prompt</skill>`.
     */
    expandSlashCommand(input: StreamInput): Promise<SlashExpansion>;
    /** The turn's expansion: a skill that fails to load is reported as a recovered error. */
    expand(input: StreamInput, emit: (e: AgentEvent) => void): Promise<StreamInput>;
}
//# sourceMappingURL=skill-wiring.d.ts.map