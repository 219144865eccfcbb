import { isRecord as isRec } from '@codeagent/artifact-schema/internal';
import type { JsonValue, SessionStore, TurnRecord } from './types.js';

/*
 * Steps in the shape agent-core sessions keep (AI SDK model messages), built from agent-core's turn events without
 * importing agent-core: a step is one model answer (its text and tool calls) and the results of those calls.
 */

/** One completed step: the assistant message, then the tool message with every call's result. */
export interface AgentStep {
  readonly messages: JsonValue[];
}

/** Follows a turn's events and reports each step once every tool call of it has a result. */
export interface StepRecorder {
  /** Feed every event of the turn (agent-core `streamEvents`), in order; events it does not know are ignored. */
  record(event: unknown): void;
  /** Forgets a step in progress (a new turn). */
  reset(): void;
}

function jsonSafe(value: unknown): JsonValue {
  try {
    return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
  } catch {
    return String(value);
  }
}

/**
 * A recorder that calls `onStep` with each completed step (`delta` text, `tool-request` calls, `tool-result`
 * values), so a host saves it ({@link SessionStore.appendStep}) before the next model request runs long. A step
 * without tool calls (the final answer) is never reported: the turn's end saves the whole session.
 */
export function createStepRecorder(onStep: (step: AgentStep) => void): StepRecorder {
  let text = '';
  let calls = new Map<string, { name: string; input: JsonValue }>();
  let results = new Map<string, { name: string; value: string; isError: boolean }>();
  const reset = () => {
    text = '';
    calls = new Map();
    results = new Map();
  };
  return {
    reset,
    record(event) {
      if (!isRec(event)) return;
      switch (event.type) {
        case 'delta':
          if (typeof event.text === 'string') text += event.text;
          return;
        case 'tool-request':
          if (typeof event.id === 'string' && typeof event.name === 'string')
            calls.set(event.id, { name: event.name, input: jsonSafe(event.arguments) });
          return;
        case 'tool-result': {
          if (typeof event.id !== 'string') return;
          const value = typeof event.value === 'string' ? event.value : JSON.stringify(event.value ?? null);
          results.set(event.id, {
            name: typeof event.name === 'string' ? event.name : '',
            value,
            isError: event.isError === true,
          });
          if (calls.size === 0 || ![...calls.keys()].every((id) => results.has(id))) return;
          const assistant: JsonValue = {
            role: 'assistant',
            content: [
              ...(text.trim() === '' ? [] : [{ type: 'text', text }]),
              ...[...calls].map(([toolCallId, call]) => ({
                type: 'tool-call',
                toolCallId,
                toolName: call.name,
                input: call.input,
              })),
            ],
          };
          const tool: JsonValue = {
            role: 'tool',
            content: [...calls.keys()].map((toolCallId) => {
              const result = results.get(toolCallId);
              return {
                type: 'tool-result',
                toolCallId,
                toolName: result?.name ?? '',
                output: { type: result?.isError ? 'error-text' : 'text', value: result?.value ?? '' },
              };
            }),
          };
          reset();
          onStep({ messages: [assistant, tool] });
          return;
        }
        default:
          return;
      }
    },
  };
}

/**
 * An agent snapshot (`{messages: [...]}`, agent-core session JSON) with an interrupted turn's saved steps appended:
 * the turn's prompt as a user message (when it is text), then each step's messages. `steps` is how many were
 * appended; the snapshot comes back unchanged when it has no message list or the turn no steps.
 */
export function appendTurnSteps(
  agent: JsonValue | null,
  turn: TurnRecord | null,
): { agent: JsonValue | null; steps: number } {
  if (turn === null || turn.steps.length === 0 || !isRec(agent) || !Array.isArray(agent.messages))
    return { agent, steps: 0 };
  const messages: JsonValue[] = [];
  for (const step of turn.steps) {
    const list = isRec(step) ? step.messages : undefined;
    if (Array.isArray(list)) messages.push(...(list as JsonValue[]));
  }
  const prompt = typeof turn.prompt === 'string' ? [{ role: 'user', content: turn.prompt }] : [];
  return {
    agent: { ...agent, messages: [...(agent.messages as JsonValue[]), ...prompt, ...messages] },
    steps: turn.steps.length,
  };
}
