/**
 * `@codeagent/system-prompt`: the coding-agent system prompt every codeagent host sends (role, environment, git
 * state, tool conventions, how to ask) and the project's instruction files (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`
 * from the repository root down to the working directory, plus `~/.codeagent/AGENTS.md`), read as untrusted input.
 *
 * @packageDocumentation
 */
export type { CreatedSystemPrompt, CreateSystemPromptOptions } from './create.js';
export { createSystemPrompt, displaySafe } from './create.js';
export type { GitState } from './git.js';
export { MAX_STATUS_PATHS, readGitState } from './git.js';
export type { InstructionFile, LoadedInstructions, LoadInstructionsOptions } from './instructions.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_TOTAL_BYTES,
  findRepositoryRoot,
  INSTRUCTION_FILE_NAMES,
  loadInstructionFiles,
  USER_INSTRUCTIONS_PATH,
} from './instructions.js';
export type { PromptEnvironment, SystemPromptParts } from './prompt.js';
export { buildSystemPrompt, INSTRUCTIONS_TAG } from './prompt.js';
