import { buildSkillHint, loadSkillPrompt, parseSlashCommand, SkillError, useSkillTool, } from '@codeagent/skills';
import { jsonSchema } from 'ai';
import { errorMessage } from './errors.js';
import { defineTool } from './tool.js';
/**
 * The skills wiring of a `registerTools: true` client: the `use_skill` tool, the `<available_skills>`
 * hint of the system prompt, and the one slash-command expansion every host path goes through.
 */
export class SkillWiring {
    #discovery;
    #hint;
    #slash;
    #hintText;
    constructor(cwd, options) {
        this.#discovery = {
            cwd,
            ...(options?.dirs ? { dirs: options.dirs } : {}),
            ...(options?.homeDir ? { homeDir: options.homeDir } : {}),
        };
        this.#hint = options?.hint !== false;
        this.#slash = options?.slashCommands !== false;
    }
    /** The `use_skill` tool over this client's discovery. */
    useSkillTool() {
        const skill = useSkillTool(this.#discovery);
        return defineTool({
            name: skill.name,
            description: skill.description,
            inputSchema: jsonSchema(skill.inputSchema),
            capability: skill.capability,
            execute: (args) => skill.execute(args),
        });
    }
    /** The hint text, once loaded (`''` when there is none or it failed). */
    get hintText() {
        return this.#hint ? this.#hintText : undefined;
    }
    /** Loads the hint before the first turn. */
    async loadHint() {
        if (!this.#hint || this.#hintText !== undefined)
            return;
        try {
            this.#hintText = await buildSkillHint(this.#discovery);
        }
        catch {
            this.#hintText = '';
        }
    }
    /**
     * Expands `/name args` (a string, or the first text part of content-part input) naming a discovered
     * skill into the command followed by `<skill name="…">prompt</skill>`.
     */
    async expandSlashCommand(input) {
        if (!this.#slash)
            return { kind: 'none', input };
        // Anything but a string or an array is left for `toUserMessage` to refuse with a clear error.
        const first = Array.isArray(input) ? input[0] : undefined;
        const text = typeof input === 'string' ? input : first?.type === 'text' ? first.text : undefined;
        if (typeof text !== 'string')
            return { kind: 'none', input };
        const command = parseSlashCommand(text);
        if (!command)
            return { kind: 'none', input };
        let prompt;
        try {
            prompt = await loadSkillPrompt(command.name, { ...this.#discovery, args: command.args });
        }
        catch (e) {
            // Not a skill: host commands such as /compact pass through.
            const kind = e instanceof SkillError && e.code === 'skill-not-found' ? 'unknown' : 'failed';
            return { kind, name: command.name, message: errorMessage(e), input };
        }
        const expanded = `${text.trim()}\n\n<skill name="${command.name}">\n${prompt.trimEnd()}\n</skill>`;
        if (typeof input === 'string')
            return { kind: 'skill', name: command.name, input: expanded };
        return {
            kind: 'skill',
            name: command.name,
            input: [{ ...first, text: expanded }, ...input.slice(1)],
        };
    }
    /** The turn's expansion: a skill that fails to load is reported as a recovered error. */
    async expand(input, emit) {
        const out = await this.expandSlashCommand(input);
        if (out.kind === 'failed') {
            emit({ type: 'error', message: `Skill /${out.name} not loaded: ${out.message}`, recovered: true });
        }
        return out.input;
    }
}
//# sourceMappingURL=skill-wiring.js.map