import { type SkillDiscoveryOptions, listSkillsMeta } from './discovery.js';
import { SkillError } from './errors.js';
import { loadSkillPrompt } from './load.js';

/** Input accepted by the `use_skill` tool. */
export interface UseSkillInput {
  /** Exact skill name. */
  readonly name: string;
  /** Optional raw argument text. */
  readonly args?: string;
}

/** A plain JSON Schema (draft 2020-12 subset) object describing {@link UseSkillInput}. */
export interface UseSkillInputSchema {
  /** Always `object`. */
  readonly type: 'object';
  /** Property schemas. */
  readonly properties: {
    /** The skill name. */
    readonly name: {
      /** Always `string`. */
      readonly type: 'string';
      /** Field description for the model. */
      readonly description: string;
      /** Regular expression of a valid skill name. */
      readonly pattern: string;
      /** Maximum name length (64). */
      readonly maxLength: number;
    };
    /** The arguments. */
    readonly args: {
      /** Always `string`. */
      readonly type: 'string';
      /** Field description for the model. */
      readonly description: string;
    };
  };
  /** Required properties. */
  readonly required: readonly ['name'];
  /** No other properties. */
  readonly additionalProperties: false;
}

/** A framework-neutral tool definition that agent-core (or any loop) can register. */
export interface UseSkillTool {
  /** Tool name, always `use_skill`. */
  readonly name: 'use_skill';
  /** Description for the model. */
  readonly description: string;
  /** JSON Schema of the input. */
  readonly inputSchema: UseSkillInputSchema;
  /** Permission capability: loading a skill only reads files. */
  readonly capability: 'read';
  /** Validates the (untrusted) input and returns the skill's prompt; throws {@link SkillError} on bad input or unknown skill. */
  execute(input: unknown): Promise<string>;
}

/** Validates untrusted `use_skill` input; throws `invalid-tool-input` with a clear message. */
export function parseUseSkillInput(input: unknown): UseSkillInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new SkillError('invalid-tool-input', 'use_skill expects an object {name: string, args?: string}');
  }
  const { name, args } = input as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') {
    throw new SkillError('invalid-tool-input', 'use_skill: "name" must be a non-empty string');
  }
  if (args !== undefined && args !== null && typeof args !== 'string') {
    throw new SkillError('invalid-tool-input', 'use_skill: "args" must be a string when given');
  }
  return typeof args === 'string' ? { name, args } : { name };
}

/** Creates the `use_skill` tool bound to a project (`cwd`) and optional host directories. */
export function useSkillTool(options: SkillDiscoveryOptions): UseSkillTool {
  return {
    name: 'use_skill',
    description:
      'Load a skill by its exact name (one listed in <available_skills>) and return its instructions. ' +
      'Pass any arguments as a single string in "args".',
    inputSchema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          description: 'Exact skill name from <available_skills>.',
          pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
          maxLength: 64,
        },
        args: { type: 'string', description: 'Optional arguments for the skill, as one string.' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    capability: 'read',
    async execute(input: unknown): Promise<string> {
      const { name, args } = parseUseSkillInput(input);
      // The model may only load what it was offered: skills with `auto-trigger: false` or
      // `disable-model-invocation: true` stay the user's (slash command only).
      return loadSkillPrompt(name, { ...options, args: args ?? '', invokedBy: 'model' });
    },
  };
}

/** Lists just the names of the discovered skills, sorted (handy for completion menus). */
export async function listSkillNames(options: SkillDiscoveryOptions): Promise<string[]> {
  const { skills } = await listSkillsMeta(options);
  return skills.map((s) => s.name);
}
