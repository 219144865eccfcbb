import {
  buildSkillHint,
  loadSkillPrompt,
  parseSlashCommand,
  SkillError,
  useSkillTool,
} from '@codeagent/skills';
import { jsonSchema } from 'ai';
import { errorMessage } from './errors.js';
import type { AgentEvent } from './events.js';
import type { InputPart, StreamInput } from './input.js';
import { type AgentTool, defineTool } from './tool.js';

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
export type SlashExpansion =
  | { readonly kind: 'skill'; readonly name: string; readonly input: StreamInput }
  | { readonly kind: 'none'; readonly input: StreamInput }
  | {
      readonly kind: 'unknown' | 'failed';
      readonly name: string;
      readonly message: string;
      readonly input: StreamInput;
    };

/** Where skills are discovered for one client. */
interface SkillDiscovery {
  readonly cwd: string;
  readonly dirs?: readonly string[];
  readonly homeDir?: string;
}

/**
 * The skills wiring of a `registerTools: true` client: the `use_skill` tool, the `<available_skills>`
 * hint of the system prompt, and the one slash-command expansion every host path goes through.
 */
export class SkillWiring {
  readonly #discovery: SkillDiscovery;
  readonly #hint: boolean;
  readonly #slash: boolean;
  #hintText: string | undefined;

  constructor(cwd: string, options: SkillsOptions | undefined) {
    this.#discovery = {
      cwd,
      ...(options?.dirs ? { dirs: options.dirs } : {}),
      ...(options?.homeDir ? { homeDir: options.homeDir } : {}),
    };
    this.#hint = options?.hint !== false;
    this.#slash = options?.slashCommands !== false;
  }

  /** The `use_skill` tool over this client's discovery. */
  useSkillTool(): AgentTool<unknown> {
    const skill = useSkillTool(this.#discovery);
    return defineTool<unknown>({
      name: skill.name,
      description: skill.description,
      inputSchema: jsonSchema(skill.inputSchema as never),
      capability: skill.capability,
      execute: (args) => skill.execute(args),
    });
  }

  /** The hint text, once loaded (`''` when there is none or it failed). */
  get hintText(): string | undefined {
    return this.#hint ? this.#hintText : undefined;
  }

  /** Loads the hint before the first turn. */
  async loadHint(): Promise<void> {
    if (!this.#hint || this.#hintText !== undefined) return;
    try {
      this.#hintText = await buildSkillHint(this.#discovery);
    } catch {
      this.#hintText = '';
    }
  }

  /**
   * Expands `/name args` (a string, or the first text part of content-part input) naming a discovered
   * skill into the command followed by `<skill name="…">prompt</skill>`.
   */
  async expandSlashCommand(input: StreamInput): Promise<SlashExpansion> {
    if (!this.#slash) return { kind: 'none', input };
    // Anything but a string or an array is left for `toUserMessage` to refuse with a clear error.
    const first: InputPart | undefined = Array.isArray(input) ? input[0] : undefined;
    const text = typeof input === 'string' ? input : first?.type === 'text' ? first.text : undefined;
    if (typeof text !== 'string') return { kind: 'none', input };
    const command = parseSlashCommand(text);
    if (!command) return { kind: 'none', input };
    let prompt: string;
    try {
      prompt = await loadSkillPrompt(command.name, { ...this.#discovery, args: command.args });
    } catch (e) {
      // Not a skill: host commands such as /compact pass through.
      const kind = e instanceof SkillError && e.code === 'skill-not-found' ? 'unknown' : 'failed';
      return { kind, name: command.name, message: errorMessage(e), input };
    }
    const expanded = `${text.trim()}\n\n<skill name="${command.name}">\n${prompt.trimEnd()}\n</skill>`;
    if (typeof input === 'string') return { kind: 'skill', name: command.name, input: expanded };
    return {
      kind: 'skill',
      name: command.name,
      input: [{ ...(first as InputPart & { type: 'text' }), text: expanded }, ...input.slice(1)],
    };
  }

  /** The turn's expansion: a skill that fails to load is reported as a recovered error. */
  async expand(input: StreamInput, emit: (e: AgentEvent) => void): Promise<StreamInput> {
    const out = await this.expandSlashCommand(input);
    if (out.kind === 'failed') {
      emit({ type: 'error', message: `Skill /${out.name} not loaded: ${out.message}`, recovered: true });
    }
    return out.input;
  }
}
