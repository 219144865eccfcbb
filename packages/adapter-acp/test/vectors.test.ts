import type { StopReason } from '@codeagent/agent-core';
import type { ToolCallView, ToolResultView } from '@codeagent/render-intent';
import { describe, expect, it } from 'vitest';
import mapping from '@codeagent/render-intent/vectors/acp-mapping.json' with { type: 'json' };
import { acpStopReason, toolCallNotice, toolResultNotices } from '../src/index.js';

// The shared conformance vectors (also run by @codeagent/conformance): view -> ACP update, stop reason -> ACP.
type Ctx = { cwd: string; terminalOutput: boolean };
const run: Record<string, (...args: never[]) => unknown> = {
  acpToolCall: (id: string, view: ToolCallView, rawInput: unknown, ctx: Ctx) =>
    toolCallNotice(id, view, rawInput, ctx),
  acpToolResult: (id: string, call: ToolCallView | null, view: ToolResultView, isError: boolean, ctx: Ctx) =>
    toolResultNotices(id, call ?? undefined, view, isError, ctx),
  acpStopReason: (reason: StopReason) => acpStopReason(reason),
};

describe('ACP mapping vectors (@codeagent/render-intent/vectors/acp-mapping.json)', () => {
  it('has unique ids, a rule for each, and covers every row of the mapping table and every stop reason', () => {
    const ids = mapping.vectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const v of mapping.vectors) expect(v.rule).toMatch(/CONTRACTS\.md §2 ACP mapping|ADR 0150/);
    for (const id of [
      'call/generic-call',
      'call/diff-call',
      'call/terminal-call-capability',
      'call/terminal-call-no-capability',
      'result/generic-result-completed',
      'result/terminal-result-capability',
      'result/terminal-result-no-capability',
      'result/diff-result',
    ])
      expect(ids).toContain(id);
    expect(mapping.vectors.filter((v) => v.op === 'acpStopReason')).toHaveLength(8);
  });

  it.each(mapping.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const fn = run[v.op] as (...args: unknown[]) => unknown;
    expect(JSON.parse(JSON.stringify(fn(...v.args)))).toEqual(v.expected);
  });
});
