import { describe, expect, it } from 'vitest';
import { BUILTIN_ARTIFACT_KINDS, BUILTIN_TOOL_META } from '../src/index.js';

describe('public surface', () => {
  it('pins the internal entry: the tool bodies and process helpers, outside semver', async () => {
    expect(Object.keys(await import('../src/internal.js')).sort()).toEqual([
      'OutputCapture',
      'editTextFile',
      'formatTodos',
      'globFiles',
      'grepFiles',
      'imageMimeOf',
      'killProcessGroup',
      'readImageFile',
      'readTextFile',
      'runCommand',
      'toPlainText',
      'walkFiles',
      'writeTextFile',
    ]);
  });

  it('pins the export names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'BUILTIN_ARTIFACT_KINDS',
      'BUILTIN_TOOL_META',
      'BackgroundJobs',
      'PROCESS_TAG_ENV',
      'ProcessGroups',
      'TodoList',
      'ToolError',
      'Workspace',
      'builtinTools',
      'createBashTool',
      'createBuiltinPresentations',
      'createBuiltinToolkit',
      'createEditTool',
      'createGlobTool',
      'createGrepTool',
      'createJobKillTool',
      'createJobOutputTool',
      'createReadTool',
      'createTodoWriteTool',
      'createWriteTool',
      'findTaggedProcesses',
      'previewEdit',
      'previewWrite',
    ]);
  });

  it('pins the capability table and artifact kinds (protocol constants)', () => {
    expect(BUILTIN_TOOL_META).toEqual({
      Read: { capability: 'read', set: 'files', primaryArgument: 'file_path' },
      Write: { capability: 'write', set: 'files', primaryArgument: 'file_path' },
      Edit: { capability: 'write', set: 'files', primaryArgument: 'file_path' },
      Glob: { capability: 'read', set: 'files' },
      Grep: { capability: 'read', set: 'files' },
      Bash: { capability: 'exec', set: 'shell', primaryArgument: 'command' },
      TodoWrite: { capability: 'read', set: 'todo' },
      job_output: { capability: 'read', set: 'shell', primaryArgument: 'job_id' },
      job_kill: { capability: 'exec', set: 'shell', primaryArgument: 'job_id' },
    });
    expect(BUILTIN_ARTIFACT_KINDS).toEqual({
      Read: 'code',
      Write: 'diff',
      Edit: 'diff',
      Glob: 'table',
      Grep: 'table',
      Bash: 'code',
      TodoWrite: 'table',
      job_output: 'code',
      job_kill: 'text',
    });
    expect(Object.isFrozen(BUILTIN_TOOL_META)).toBe(true);
  });
});
