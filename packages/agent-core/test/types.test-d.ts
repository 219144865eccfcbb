import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  type AgentTool,
  type CompactionAction,
  type CompactionDecision,
  type DroppedItem,
  defineTool,
  type PendingStep,
  type ResumeAnswer,
  type ResumeOptions,
  resumeTurn,
  resumeTurnEvents,
  type StopReason,
  type StreamCallbacks,
  type StreamResult,
  type ToolResultEvent,
  type Usage,
} from '../src/index.js';
import { assertNever } from '@codeagent/render-intent';

describe('types', () => {
  it('AgentEvent narrows on type', () => {
    const handle = (e: AgentEvent): string => {
      switch (e.type) {
        case 'delta':
        case 'thinking':
          return e.text;
        case 'tool-request':
          expectTypeOf(e.intent).toEqualTypeOf<string | null>();
          return e.name;
        case 'tool-output':
          expectTypeOf(e.stream).toEqualTypeOf<'stdout' | 'stderr'>();
          return e.text;
        case 'tool-result':
          expectTypeOf(e.value).toEqualTypeOf<string>();
          return e.id;
        case 'error':
          expectTypeOf(e.recovered).toEqualTypeOf<boolean>();
          return e.message;
        case 'usage':
          expectTypeOf(e.usage).toEqualTypeOf<Usage>();
          return '';
        case 'tick':
          return '';
        case 'compaction':
          expectTypeOf(e.decision).toEqualTypeOf<CompactionDecision>();
          return e.decision.action;
        case 'end':
          expectTypeOf(e.result).toEqualTypeOf<StreamResult>();
          return e.result.text;
        default:
          return assertNever(e);
      }
    };
    expectTypeOf(handle).toBeFunction();
  });

  it('the union is closed', () => {
    // @ts-expect-error 'finish' is not an event type
    const bad: AgentEvent['type'] = 'finish';
    expectTypeOf(bad).toBeString();
  });

  it('StopReason and CompactionAction are closed unions', () => {
    expectTypeOf<StopReason>().toEqualTypeOf<
      | 'completed'
      | 'truncated'
      | 'filtered'
      | 'incomplete_tool_use'
      | 'error'
      | 'interrupted'
      | 'max_turns'
      | 'budget_exceeded'
    >();
    expectTypeOf<CompactionAction>().toEqualTypeOf<
      'snip' | 'summary' | 'full-summary' | 'drop-oldest' | 'failed' | 'skipped'
    >();
    expectTypeOf<DroppedItem['kind']>().toEqualTypeOf<'tool-result' | 'message'>();
  });

  it('onToolResult gets exactly the seven keys', () => {
    expectTypeOf<keyof ToolResultEvent>().toEqualTypeOf<
      'id' | 'name' | 'display' | 'value' | 'isError' | 'artifact' | 'view'
    >();
    expectTypeOf<Parameters<NonNullable<StreamCallbacks['onError']>>>().toEqualTypeOf<
      [message: string, recovered: boolean]
    >();
  });

  it('defineTool infers the args from the schema', () => {
    const t = defineTool({
      name: 'x',
      description: 'x',
      inputSchema: z.object({ path: z.string(), line: z.number().optional() }),
      capability: 'read',
      execute: (args) => {
        expectTypeOf(args.path).toEqualTypeOf<string>();
        return args.path;
      },
    });
    expectTypeOf(t).toMatchTypeOf<AgentTool<{ path: string; line?: number | undefined }>>();
    defineTool({
      name: 'y',
      description: 'y',
      inputSchema: z.object({}),
      // @ts-expect-error capability must be read, write, exec or net
      capability: 'admin',
      execute: () => '',
    });
  });

  it('resuming a parked turn: answers, options and results are typed like a turn', () => {
    expectTypeOf<ResumeAnswer['scope']>().toEqualTypeOf<'once' | 'session' | undefined>();
    expectTypeOf<ResumeAnswer['approved']>().toEqualTypeOf<boolean>();
    expectTypeOf<PendingStep['calls'][number]>().toHaveProperty('arguments').toEqualTypeOf<unknown>();
    expectTypeOf<ResumeOptions['claim']>().toEqualTypeOf<
      (() => boolean | PromiseLike<boolean>) | undefined
    >();
    expectTypeOf(resumeTurn).returns.toEqualTypeOf<Promise<StreamResult>>();
    expectTypeOf(resumeTurnEvents).returns.toEqualTypeOf<AsyncIterable<AgentEvent>>();
    // @ts-expect-error a scope is once or session, never a whole tool
    const bad: ResumeAnswer = { id: 'c', approved: true, input: {}, scope: 'tool' };
    void bad;
  });
});
