import type { AgentTool } from '@codeagent/agent-core';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  BUILTIN_TOOL_META,
  type BuiltinCapability,
  type BuiltinToolName,
  builtinTools,
  createBashTool,
  createReadTool,
  type GrepOutputMode,
  type JobStatus,
  type ReadArgs,
  type BashArgs,
  type EditArgs,
  type GlobArgs,
  type GrepArgs,
  type JobArgs,
  type TodoStatus,
  type TodoWriteArgs,
  type ToolCallPreview,
  type ToolErrorCode,
  type WriteArgs,
} from '../src/index.js';
import type { BUILTIN_INPUT_SCHEMAS } from '../src/schemas.js';

import { assertNever, type ToolCallView } from '@codeagent/render-intent';

type Infer<K extends keyof typeof BUILTIN_INPUT_SCHEMAS> = z.infer<(typeof BUILTIN_INPUT_SCHEMAS)[K]>;

describe('types', () => {
  it('the documented argument interfaces are exactly what the input schemas infer', () => {
    expectTypeOf<Infer<'Read'>>().toEqualTypeOf<ReadArgs>();
    expectTypeOf<Infer<'Write'>>().toEqualTypeOf<WriteArgs>();
    expectTypeOf<Infer<'Edit'>>().toEqualTypeOf<EditArgs>();
    expectTypeOf<Infer<'Glob'>>().toEqualTypeOf<GlobArgs>();
    expectTypeOf<Infer<'Grep'>>().toEqualTypeOf<GrepArgs>();
    expectTypeOf<Infer<'Bash'>>().toEqualTypeOf<BashArgs>();
    expectTypeOf<Infer<'TodoWrite'>>().toEqualTypeOf<TodoWriteArgs>();
    expectTypeOf<Infer<'job_output'>>().toEqualTypeOf<JobArgs>();
    expectTypeOf<Infer<'job_kill'>>().toEqualTypeOf<JobArgs>();
  });

  it('factories are typed by their args', () => {
    expectTypeOf(createReadTool).returns.toEqualTypeOf<AgentTool<ReadArgs>>();
    expectTypeOf(createBashTool).returns.toEqualTypeOf<AgentTool<BashArgs>>();
    expectTypeOf(builtinTools).returns.toEqualTypeOf<AgentTool[]>();
    // @ts-expect-error cwd is required: the tools need a workspace
    builtinTools({});
    // @ts-expect-error a file path is required
    const args: ReadArgs = { offset: 1 };
    void args;
  });

  it('the capability table covers exactly the built-in names', () => {
    expectTypeOf(BUILTIN_TOOL_META).toEqualTypeOf<
      Readonly<Record<BuiltinToolName, import('../src/index.js').BuiltinToolMeta>>
    >();
    expectTypeOf<BuiltinCapability>().toEqualTypeOf<'read' | 'write' | 'exec'>();
    // @ts-expect-error not a built-in tool
    void BUILTIN_TOOL_META.WebFetch;
  });

  it('closed unions switch exhaustively', () => {
    const mode = (m: GrepOutputMode): number => {
      switch (m) {
        case 'content':
          return 1;
        case 'files_with_matches':
          return 2;
        case 'count':
          return 3;
        default:
          return assertNever(m);
      }
    };
    const status = (s: JobStatus | TodoStatus): string => {
      switch (s) {
        case 'running':
        case 'exited':
        case 'killed':
        case 'pending':
        case 'in_progress':
        case 'completed':
          return s;
        default:
          return assertNever(s);
      }
    };
    expectTypeOf(mode).returns.toBeNumber();
    expectTypeOf(status).returns.toBeString();
    expectTypeOf<'outside-workspace'>().toMatchTypeOf<ToolErrorCode>();
    // @ts-expect-error unknown error codes are not ToolErrorCodes
    const code: ToolErrorCode = 'oops';
    void code;
  });

  it('a preview is narrowed by ok: a view and the change, or the tool error', () => {
    const show = (p: ToolCallPreview): string => {
      if (p.ok) {
        expectTypeOf(p.view).toEqualTypeOf<ToolCallView>();
        expectTypeOf(p.change.beforeDigest).toEqualTypeOf<string>();
        // @ts-expect-error a successful preview has no error message
        void p.message;
        return p.change.displayPath;
      }
      expectTypeOf(p.code).toEqualTypeOf<ToolErrorCode>();
      return p.message;
    };
    void show;
  });
});
