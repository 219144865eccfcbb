/**
 * `@codeagent/tools/internal`: the tool bodies and process helpers the built-in tools are made of, for sibling
 * packages and this package's tests. Outside semver: anything here may change in a minor or patch release. A
 * host needs only the root entry (the tools, the toolkit, `Workspace`, the tables).
 *
 * @packageDocumentation
 */
export { type CapturedOutput, OutputCapture } from './capture.js';
export { editTextFile, type FileChangeKind, type FileChangeOutcome, writeTextFile } from './files.js';
export { type CommandResult, killProcessGroup, type RunCommandOptions, runCommand } from './process.js';
export { type ImageOutcome, imageMimeOf, type ReadOutcome, readImageFile, readTextFile } from './read.js';
export { globFiles, grepFiles, type SearchOutcome, type TableColumn, type TableRow } from './search.js';
export { toPlainText } from './text.js';
export { formatTodos } from './todo.js';
export { type WalkEntry, type WalkOptions, walkFiles } from './walk.js';
