import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AgentStep, appendTurnSteps, createStepRecorder, type TurnRecord } from '../src/index.js';

describe('steps from agent events', () => {
  it('reports a step when every call of the answer has its result, in the AI SDK message shape', () => {
    const steps: AgentStep[] = [];
    const r = createStepRecorder((s) => steps.push(s));
    r.record({ type: 'delta', text: 'Reading both.' });
    r.record({ type: 'tool-request', id: 'a', name: 'Read', arguments: { file_path: 'x' } });
    r.record({ type: 'tool-request', id: 'b', name: 'Bash', arguments: { command: 'ls' } });
    r.record({ type: 'tool-result', id: 'a', name: 'Read', value: 'text of x', isError: false });
    expect(steps).toHaveLength(0);
    r.record({ type: 'tool-result', id: 'b', name: 'Bash', value: { code: 1 }, isError: true });
    expect(steps).toEqual([
      {
        messages: [
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Reading both.' },
              { type: 'tool-call', toolCallId: 'a', toolName: 'Read', input: { file_path: 'x' } },
              { type: 'tool-call', toolCallId: 'b', toolName: 'Bash', input: { command: 'ls' } },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'a',
                toolName: 'Read',
                output: { type: 'text', value: 'text of x' },
              },
              {
                type: 'tool-result',
                toolCallId: 'b',
                toolName: 'Bash',
                output: { type: 'error-text', value: '{"code":1}' },
              },
            ],
          },
        ],
      },
    ]);
    // The final answer (no calls) is not a step; the turn's end saves it.
    r.record({ type: 'delta', text: 'Done.' });
    r.record({ type: 'end', result: {} });
    expect(steps).toHaveLength(1);
  });

  it('takes any sequence of events without throwing', () => {
    const event = fc.oneof(
      fc.anything(),
      fc.record({
        type: fc.constantFrom('delta', 'tool-request', 'tool-result', 'end'),
        id: fc.oneof(fc.string(), fc.anything()),
        text: fc.anything(),
        name: fc.anything(),
        value: fc.anything(),
        isError: fc.anything(),
      }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const r = createStepRecorder(() => undefined);
        for (const e of events) r.record(e);
      }),
      { numRuns: 300 },
    );
  });

  it('appends an interrupted turn to a snapshot: the prompt, then each step', () => {
    const turn: TurnRecord = {
      id: 't',
      state: 'interrupted',
      owner: null,
      prompt: 'fix it',
      steps: [{ messages: ['m1', 'm2'] }, { messages: ['m3', 'm4'] }, 'garbage'],
      startedAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(appendTurnSteps({ version: 1, messages: ['old'] }, turn)).toEqual({
      agent: { version: 1, messages: ['old', { role: 'user', content: 'fix it' }, 'm1', 'm2', 'm3', 'm4'] },
      steps: 3,
    });
    expect(appendTurnSteps(null, turn)).toEqual({ agent: null, steps: 0 });
    expect(appendTurnSteps({ messages: [] }, { ...turn, steps: [] })).toEqual({
      agent: { messages: [] },
      steps: 0,
    });
  });
});
