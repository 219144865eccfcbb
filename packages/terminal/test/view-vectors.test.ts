import { describe, expect, it } from 'vitest';
import vectors from '../vectors/views.json' with { type: 'json' };
import { renderToolCall, renderToolResult, type ToolResultData } from '../src/index.js';

// The shared conformance vectors for terminal renderers of cards with colour off (also run by @codeagent/conformance).
type Input = { call: never } | { result: never; data?: ToolResultData };
const render = (input: Input): string =>
  'call' in input
    ? renderToolCall(input.call, { color: false, width: 80 })
    : renderToolResult(input.result, input.data ?? {}, { color: false, width: 80 });

describe('card vectors with colour off (vectors/views.json)', () => {
  it('has unique ids, a rule for each, and covers every card of calls and results', () => {
    const ids = vectors.vectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const v of vectors.vectors) expect(v.rule).toMatch(/CONTRACTS\.md §[12]/);
    for (const card of ['generic', 'terminal', 'diff', 'unknown-card'])
      for (const side of ['call', 'result']) expect(ids).toContain(`${side}/${card}`);
  });

  it.each(vectors.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    if ('throws' in v && v.throws) {
      expect(() => render(v.input as Input)).toThrow(expect.objectContaining(v.throws));
      return;
    }
    const text = render(v.input as Input);
    expect(text).not.toContain('\u001b');
    let from = 0;
    for (const s of v.contains ?? []) {
      const at = text.indexOf(s, from);
      expect(at, `"${s}" after offset ${from} in:\n${text}`).toBeGreaterThanOrEqual(0);
      from = at + s.length;
    }
    for (const s of ('absent' in v ? v.absent : undefined) ?? []) expect(text).not.toContain(s);
  });
});
