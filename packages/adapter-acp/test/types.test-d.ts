import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expectTypeOf, it } from 'vitest';
import type { ScopedGrant, ToolCallNotice, ToolCallUpdateNotice } from '../src/index.js';
import { toolResultNotices } from '../src/index.js';

describe('adapter-acp types', () => {
  it('notices are members of the SDK SessionUpdate union', () => {
    expectTypeOf<ToolCallNotice>().toExtend<SessionUpdate>();
    expectTypeOf<ToolCallUpdateNotice>().toExtend<SessionUpdate>();
    expectTypeOf(toolResultNotices).returns.toEqualTypeOf<ToolCallUpdateNotice[]>();
  });

  it('a scoped grant is a prefix or a path, never a bare tool', () => {
    const bare = { tool: 'Bash' };
    // @ts-expect-error a grant without a prefix or a path is not a grant
    const g: ScopedGrant = bare;
    expectTypeOf(g).toExtend<{ tool: string }>();
    expectTypeOf<Extract<ScopedGrant, { prefix: readonly string[] }>['exact']>().toEqualTypeOf<boolean>();
  });
});
