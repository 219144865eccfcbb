import { describe, expect, it } from 'vitest';

describe('public surface', () => {
  it('pins the export names', async () => {
    const mod = await import('../src/index.js');
    expect(Object.keys(mod).sort()).toEqual(
      [
        'AGENT_EVENT_TYPES',
        'AgentCoreError',
        'CLEARED_TOOL_RESULT',
        'COMPACTION_ACTIONS',
        'CodeagentClient',
        'DEFAULT_SUMMARY_PROMPT',
        'INTENT_ARGUMENT',
        'PRESENTATION_META_KEY',
        'SESSION_FORMAT',
        'SESSION_VERSION',
        'STOP_REASONS',
        'TOOL_OUTPUT_INTERVAL_MS',
        'TOOL_OUTPUT_MAX_CHUNK',
        'classifyError',
        'createClient',
        'defineTool',
        'loadSession',
        'mapStopReason',
        'parseSession',
        'presentationMeta',
        'registerToolMeta',
        'stream',
        'streamEvents',
        'tokenThresholds',
        'validateToolPairs',
        'warningStateFor',
        'withPresentationMeta',
      ].sort(),
    );
  });

  it('pins the protocol constants', async () => {
    const mod = await import('../src/index.js');
    expect(mod.STOP_REASONS).toEqual([
      'completed',
      'truncated',
      'filtered',
      'incomplete_tool_use',
      'error',
      'interrupted',
      'max_turns',
      'budget_exceeded',
    ]);
    expect(mod.AGENT_EVENT_TYPES).toEqual([
      'delta',
      'thinking',
      'tool-request',
      'tool-output',
      'tool-result',
      'error',
      'usage',
      'tick',
      'compaction',
      'end',
    ]);
    expect(mod.COMPACTION_ACTIONS).toEqual([
      'snip',
      'summary',
      'full-summary',
      'drop-oldest',
      'failed',
      'skipped',
    ]);
    expect(mod.SESSION_FORMAT).toBe('codeagent.session');
    expect(mod.SESSION_VERSION).toBe(1);
    expect(mod.CLEARED_TOOL_RESULT).toBe('[Old tool result content cleared]');
    expect(mod.INTENT_ARGUMENT).toBe('_intent');
  });
});
