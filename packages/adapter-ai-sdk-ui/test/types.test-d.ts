import type { UIMessageChunk } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AgentUIChat,
  AgentUIChunk,
  CodeagentMessageMetadata,
  DenialSource,
  ToolPartInfo,
  ToolPartStatus,
} from '../src/index.ts';

describe('types', () => {
  it('chunks are AI SDK UI message chunks with our metadata', () => {
    expectTypeOf<AgentUIChunk>().toExtend<UIMessageChunk<CodeagentMessageMetadata>>();
    expectTypeOf<ReturnType<AgentUIChat['respond']>>().toEqualTypeOf<ReadableStream<AgentUIChunk>>();
  });

  it('statuses match the ToolCallCard statuses and denial sources are closed', () => {
    expectTypeOf<ToolPartStatus>().toEqualTypeOf<'pending' | 'running' | 'done' | 'failed' | 'denied'>();
    expectTypeOf<DenialSource>().toEqualTypeOf<
      'user' | 'rule' | 'timeout' | 'unknown-approval' | 'aborted'
    >();
    expectTypeOf<ToolPartInfo['denied']>().toEqualTypeOf<DenialSource | null>();
    // @ts-expect-error a status outside the union
    const s: ToolPartStatus = 'waiting';
    void s;
  });

  it('the gate callback has the permission-gate shape', () => {
    expectTypeOf<AgentUIChat['ask']>().parameters.toEqualTypeOf<[string, unknown, string | undefined]>();
  });
});
