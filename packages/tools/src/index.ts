/**
 * `@codeagent/tools`: the built-in coding tools a reference host attaches (Read, Write, Edit,
 * Glob, Grep, Bash, TodoWrite, job_output, job_kill), each a real producer of tool-result
 * artifacts and render intents, with the file tools confined to the workspace roots.
 *
 * @packageDocumentation
 */
export { type CapturedOutput, OutputCapture } from './capture.js';
export { type ToolErrorCode, ToolError } from './errors.js';
export {
  type EditArgs,
  editTextFile,
  type FileChangeKind,
  type FileChangeLimits,
  type FileChangeOutcome,
  type WriteArgs,
  writeTextFile,
} from './files.js';
export { BackgroundJobs, type BackgroundJobsOptions, type JobInfo, type JobStatus } from './jobs.js';
export { type CommandResult, killProcessGroup, type RunCommandOptions, runCommand } from './process.js';
export {
  type BuiltinPresentationsOptions,
  type BuiltinToolName,
  createBuiltinPresentations,
} from './presenters.js';
export {
  type ImageLimits,
  type ImageOutcome,
  imageMimeOf,
  type ReadArgs,
  type ReadLimits,
  type ReadOutcome,
  readImageFile,
  readTextFile,
} from './read.js';
export {
  type GlobArgs,
  type GrepArgs,
  type GrepOutputMode,
  globFiles,
  grepFiles,
  type ReadFilter,
  type SearchLimits,
  type SearchOutcome,
  type TableColumn,
  type TableRow,
} from './search.js';
export { toPlainText } from './text.js';
export { formatTodos, type TodoItem, TodoList, type TodoStatus, type TodoWriteArgs } from './todo.js';
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
} from './tools.js';
export { type ResolvedPath, Workspace, type WorkspaceOptions } from './workspace.js';
export { walkFiles, type WalkEntry, type WalkOptions } from './walk.js';
