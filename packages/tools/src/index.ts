/**
 * `@codeagent/tools`: the built-in coding tools a reference host attaches (Read, Write, Edit,
 * Glob, Grep, Bash, TodoWrite, job_output, job_kill), each a real producer of tool-result
 * artifacts and render intents, with the file tools confined to the workspace roots. The tool bodies and
 * process helpers they are made of are in `@codeagent/tools/internal` (outside semver).
 *
 * @packageDocumentation
 */
export type { CapturedOutput } from './capture.js';
export { type ToolErrorCode, ToolError } from './errors.js';
export {
  type ApprovedChange,
  type EditArgs,
  type FileChangeKind,
  type FileChangeLimits,
  type FileChangePreview,
  previewEdit,
  previewWrite,
  type WriteArgs,
} from './files.js';
export { BackgroundJobs, type BackgroundJobsOptions, type JobInfo, type JobStatus } from './jobs.js';
export { findTaggedProcesses, PROCESS_TAG_ENV, ProcessGroups, type SurvivingProcess } from './process.js';
export {
  type BuiltinPresentationsOptions,
  type BuiltinToolName,
  createBuiltinPresentations,
} from './presenters.js';
export type { ImageLimits, ReadArgs, ReadLimits } from './read.js';
export type { GlobArgs, GrepArgs, GrepOutputMode, ReadFilter, SearchLimits } from './search.js';
export { type TodoItem, TodoList, type TodoStatus, type TodoWriteArgs } from './todo.js';
export {
  BUILTIN_ARTIFACT_KINDS,
  BUILTIN_TOOL_META,
  type BashArgs,
  type BashLimits,
  type BuiltinCapability,
  type BuiltinToolkit,
  type BuiltinToolMeta,
  type BuiltinToolsOptions,
  builtinTools,
  createBashTool,
  createBuiltinToolkit,
  createEditTool,
  createGlobTool,
  createGrepTool,
  createJobKillTool,
  createJobOutputTool,
  createReadTool,
  createTodoWriteTool,
  createWriteTool,
  type JobArgs,
  type SearchResultMeta,
  type ToolCallPreview,
} from './tools.js';
export { type ResolvedPath, Workspace, type WorkspaceOptions } from './workspace.js';
