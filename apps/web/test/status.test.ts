import type { AgentUIMessage } from '@codeagent/adapter-ai-sdk-ui';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeStatus, statusText } from '../src/client/status.ts';

const tool = (state: string, title: string, extra: object = {}) => ({
  type: 'dynamic-tool',
  toolCallId: 'c1',
  toolName: 'Bash',
  state,
  input: { command: title },
  ...extra,
  toolMetadata: { codeagent: { call: { card: 'terminal', title }, intent: null } },
});
const assistant = (parts: object[], metadata: object = {}): AgentUIMessage =>
  ({ id: 'a', role: 'assistant', parts, metadata }) as unknown as AgentUIMessage;

describe('the status line says what is happening', () => {
  it('an answered approval runs: the command is named, not "waiting for your approval"', () => {
    const approved = tool('approval-responded', 'npm test', {
      approval: { id: 'ap1', approved: true },
    });
    // The message still carries the parked flag until the resumed stream replaces its metadata.
    const last = assistant([approved], { awaitingApproval: true });
    expect(describeStatus(last, 'submitted', 0)).toEqual({
      activity: 'running-tool',
      text: 'Running npm test…',
    });
    expect(describeStatus(last, 'ready', 0).activity).toBe('resuming');
    expect(describeStatus(last, 'ready', 1)).toEqual({
      activity: 'awaiting-approval',
      text: 'Waiting for your approval',
    });
    expect(describeStatus(last, 'ready', 2).text).toBe('Waiting for your approval (2 calls)');
    // A denied call does not run: the model has the next word.
    const denied = tool('approval-responded', 'rm -rf build', { approval: { id: 'ap2', approved: false } });
    expect(describeStatus(assistant([denied]), 'submitted', 0).activity).toBe('waiting-model');
  });

  it('streaming text, reasoning, a finished call, and the end of the turn', () => {
    const streaming = { type: 'text', text: 'Hel', state: 'streaming' };
    expect(describeStatus(assistant([streaming]), 'streaming', 0).activity).toBe('writing');
    expect(
      describeStatus(assistant([{ type: 'reasoning', text: 'hm', state: 'streaming' }]), 'streaming', 0),
    ).toEqual({ activity: 'thinking', text: 'Thinking…' });
    const done = tool('output-available', 'ls', { output: 'a' });
    expect(describeStatus(assistant([done]), 'streaming', 0).activity).toBe('waiting-model');
    expect(describeStatus(assistant([tool('input-streaming', 'ls')]), 'streaming', 0).text).toBe(
      'Preparing ls…',
    );
    expect(describeStatus(undefined, 'submitted', 0).activity).toBe('waiting-model');
    expect(describeStatus(assistant([], { stopReason: 'completed' }), 'ready', 0).text).toBe('Done');
    expect(describeStatus(assistant([], { stopReason: 'interrupted' }), 'ready', 0).text).toBe('Stopped');
    expect(describeStatus(assistant([], { stopReason: 'max_turns' }), 'ready', 0).text).toBe(
      'Stopped (max turns)',
    );
    expect(describeStatus(undefined, 'ready', 0).text).toBe('Ready');
    expect(describeStatus(undefined, 'error', 0).activity).toBe('error');
  });

  it('a hostile title stays one short line without controls or bidi overrides', () => {
    const evil = `rm -rf x\u202e\n\u001b[31mred\u0007${'a'.repeat(500)}`;
    const line = describeStatus(assistant([tool('input-available', evil)]), 'streaming', 0).text;
    expect(line.startsWith('Running rm -rf x red')).toBe(true);
    expect(line.length).toBeLessThanOrEqual('Running '.length + 80);
    expect(line.endsWith('a…')).toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        const out = statusText(s);
        expect(out.length).toBeLessThanOrEqual(80);
        expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }),
    );
  });
});
