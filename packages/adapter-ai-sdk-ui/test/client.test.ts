import { toolResult } from '@codeagent/artifact-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isToolPart, readMessageMetadata, readToolPart } from '../src/client.ts';

const call = { card: 'diff', title: 'Edit a.ts', diffs: [{ path: 'a.ts', oldText: 'a', newText: 'b' }] };

describe('readToolPart', () => {
  it('reads cards, artifact and status from a part the adapter wrote', () => {
    const artifact = toolResult('3 rows', { kind: 'table', payload: { df: [{ a: 1 }] } }).extra.codeagent
      .artifact;
    const info = readToolPart({
      type: 'dynamic-tool',
      toolCallId: 't1',
      toolName: 'Edit',
      state: 'output-available',
      input: {},
      output: '3 rows',
      toolMetadata: {
        codeagent: {
          call,
          intent: 'why',
          result: { card: 'diff', diffs: call.diffs },
          artifact,
          isError: false,
        },
      },
    });
    expect(info).toMatchObject({
      status: 'done',
      call,
      result: { card: 'diff' },
      value: '3 rows',
      intent: 'why',
      denied: null,
    });
    expect(info?.artifact?.kind).toBe('table');
  });

  it('maps every state to a card status', () => {
    const status = (state: string, extra: Record<string, unknown> = {}) =>
      readToolPart({ type: 'dynamic-tool', toolCallId: 't', toolName: 'X', state, ...extra })?.status;
    expect(status('input-streaming')).toBe('pending');
    expect(status('approval-requested', { approval: { id: 'a' } })).toBe('pending');
    expect(status('input-available')).toBe('running');
    expect(status('approval-responded')).toBe('running');
    expect(status('output-available')).toBe('done');
    expect(status('output-error', { errorText: 'boom' })).toBe('failed');
    expect(status('output-denied')).toBe('denied');
  });

  it('upgrades a legacy artifact on the display copy only', () => {
    const legacy = { kind: 'code', payload: { text: 'x = 1', lang: 'py' } };
    const part = {
      type: 'dynamic-tool',
      toolCallId: 't',
      toolName: 'X',
      state: 'output-available',
      output: 'x = 1',
      toolMetadata: { codeagent: { call, intent: null, artifact: legacy } },
    };
    const before = JSON.stringify(part);
    expect(readToolPart(part)?.artifact).toMatchObject({
      schema: 'codeagent.tool-artifact',
      version: 1,
      kind: 'code',
    });
    expect(JSON.stringify(part)).toBe(before);
  });

  it('filters artifact versions the UI does not render', () => {
    const future = {
      schema: 'codeagent.tool-artifact',
      version: 2,
      kind: 'text',
      status: 'success',
      icon: null,
      title: null,
      payload: { text: 'hi' },
    };
    const part = {
      type: 'dynamic-tool',
      toolCallId: 't',
      toolName: 'X',
      state: 'output-available',
      output: 'hi',
      toolMetadata: { codeagent: { call, intent: null, artifact: future } },
    };
    expect(readToolPart(part)?.artifact).toBeNull();
    expect(readToolPart(part, { versions: null })?.artifact?.version).toBe(2);
  });

  it('falls back to a generic card built from the name and input when the stored card is invalid', () => {
    const info = readToolPart({
      type: 'tool-Read',
      toolCallId: 't',
      state: 'input-available',
      input: { file_path: '\u202Eevil' },
      toolMetadata: { codeagent: { call: { card: 'nope', title: 1 } } },
    });
    expect(info?.call).toEqual({
      card: 'generic',
      title: 'Read',
      kind: 'other',
      rawInput: { file_path: '\u202Eevil' },
    });
  });

  it('never throws on arbitrary input and returns null for non-tool parts', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), (x) => {
        const info = readToolPart(x);
        if (!isToolPart(x)) expect(info).toBeNull();
        readMessageMetadata({ metadata: x });
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.record({
          type: fc.constantFrom('dynamic-tool', 'tool-Bash', 'text'),
          toolCallId: fc.string(),
          toolName: fc.option(fc.string(), { nil: undefined }),
          state: fc.option(fc.string(), { nil: undefined }),
          output: fc.anything({ maxDepth: 3 }),
          toolMetadata: fc.record({ codeagent: fc.anything({ maxDepth: 4 }) }),
          approval: fc.anything({ maxDepth: 2 }),
        }),
        (part) => {
          const info = readToolPart(part);
          if (part.type === 'text') expect(info).toBeNull();
          else expect(typeof info?.call.title).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('survives huge and deeply nested metadata without hanging', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { call: deep };
    const info = readToolPart({
      type: 'dynamic-tool',
      toolCallId: 't',
      toolName: 'X',
      state: 'output-available',
      output: 'x'.repeat(5_000_000),
      toolMetadata: { codeagent: deep },
    });
    expect(info?.value.length).toBe(5_000_000);
    expect(info?.call.card).toBe('generic');
  });
});

describe('readMessageMetadata', () => {
  it('keeps only well-typed fields', () => {
    expect(
      readMessageMetadata({
        metadata: {
          stopReason: 'completed',
          finishReason: null,
          awaitingApproval: 'yes',
          usage: { nTokens: 'many', outputTokens: 3, costLast: Number.NaN },
        },
      }),
    ).toEqual({
      stopReason: 'completed',
      finishReason: null,
      usage: { nTokens: 0, modelLimit: 0, percentLeft: 0, inputTokens: 0, outputTokens: 3, costLast: null },
    });
    expect(readMessageMetadata(null)).toEqual({});
  });
});
