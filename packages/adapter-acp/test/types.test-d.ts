import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expectTypeOf, it } from 'vitest';
import type { ToolCallNotice, ToolCallUpdateNotice } from '../src/index.js';
import { toolResultNotices } from '../src/index.js';

describe('adapter-acp types', () => {
  it('notices are members of the SDK SessionUpdate union', () => {
    expectTypeOf<ToolCallNotice>().toExtend<SessionUpdate>();
    expectTypeOf<ToolCallUpdateNotice>().toExtend<SessionUpdate>();
    expectTypeOf(toolResultNotices).returns.toEqualTypeOf<ToolCallUpdateNotice[]>();
  });
});
