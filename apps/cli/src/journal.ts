import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AgentEvent } from '@codeagent/agent-core';

/** A message as the AI SDK stores it in a session (the subset a journal writes). */
type JournalMessage =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: Array<
        | { type: 'text'; text: string }
        | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
      >;
    }
  | {
      role: 'tool';
      content: Array<{
        type: 'tool-result';
        toolCallId: string;
        toolName: string;
        output: { type: 'text' | 'error-text'; value: string };
      }>;
    };

interface Step {
  text: string;
  calls: Map<string, { name: string; input: unknown }>;
  results: Map<string, { name: string; value: string; isError: boolean }>;
}

const emptyStep = (): Step => ({ text: '', calls: new Map(), results: new Map() });

function jsonSafe(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value ?? null));
  } catch {
    return String(value);
  }
}

/**
 * The steps of the turn in flight, written to `<session>.turn-journal` each time a step completes (every tool call of
 * the model's answer has its result), so a process killed mid-turn loses at most the step in flight. The next resume
 * appends the journal's messages to the saved conversation; a turn that ends normally removes it.
 */
export class TurnJournal {
  #prompt = '';
  #messages: JournalMessage[] = [];
  #step: Step = emptyStep();
  #file: string | null = null;

  /** Starts a turn: `file` is where its journal goes (null: keep none). */
  begin(file: string | null, prompt: string): void {
    this.#file = file;
    this.#prompt = prompt;
    this.#messages = [];
    this.#step = emptyStep();
  }

  /** Follows the turn's events; writes the journal when a step completes. */
  record(event: AgentEvent): void {
    switch (event.type) {
      case 'delta':
        this.#step.text += event.text;
        return;
      case 'tool-request':
        this.#step.calls.set(event.id, { name: event.name, input: jsonSafe(event.arguments) });
        return;
      case 'tool-result': {
        const value = typeof event.value === 'string' ? event.value : JSON.stringify(event.value ?? null);
        this.#step.results.set(event.id, { name: event.name, value, isError: event.isError });
        const step = this.#step;
        if (step.calls.size > 0 && [...step.calls.keys()].every((id) => step.results.has(id))) {
          this.#complete(step);
          this.#step = emptyStep();
          this.#write();
        }
        return;
      }
      default:
        return;
    }
  }

  #complete(step: Step): void {
    const calls = [...step.calls].map(([toolCallId, call]) => ({
      type: 'tool-call' as const,
      toolCallId,
      toolName: call.name,
      input: call.input,
    }));
    this.#messages.push({
      role: 'assistant',
      content: [...(step.text.trim() === '' ? [] : [{ type: 'text' as const, text: step.text }]), ...calls],
    });
    this.#messages.push({
      role: 'tool',
      content: [...step.calls.keys()].map((toolCallId) => {
        const result = step.results.get(toolCallId);
        return {
          type: 'tool-result' as const,
          toolCallId,
          toolName: result?.name ?? '',
          output: {
            type: result?.isError ? ('error-text' as const) : ('text' as const),
            value: result?.value ?? '',
          },
        };
      }),
    });
  }

  #write(): void {
    if (this.#file === null) return;
    const data = { codeagentTurnJournal: 1, prompt: this.#prompt, messages: this.#messages };
    const tmp = `${this.#file}.${process.pid}.tmp`;
    try {
      // Synchronous on purpose: the step is on disk before the next model request starts.
      writeFileSync(tmp, JSON.stringify(data));
      renameSync(tmp, this.#file);
    } catch {
      // A journal is a safety net; a full disk must not end the turn.
    }
  }

  /** The turn ended (the session is saved whole): the journal is no longer needed. */
  end(): void {
    if (this.#file !== null) rmSync(this.#file, { force: true });
    this.#file = null;
  }
}

/**
 * Applies the journal of an interrupted turn to a saved session (agent-core session JSON): the turn's prompt and its
 * completed steps are appended to `messages`. Returns null when there is no usable journal.
 */
export async function recoverTurn(
  file: string,
  session: unknown,
): Promise<{ session: unknown; steps: number } | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const journal = data as { codeagentTurnJournal?: unknown; prompt?: unknown; messages?: unknown };
  if (
    journal.codeagentTurnJournal !== 1 ||
    typeof journal.prompt !== 'string' ||
    !Array.isArray(journal.messages)
  ) {
    return null;
  }
  if (
    typeof session !== 'object' ||
    session === null ||
    !Array.isArray((session as { messages?: unknown }).messages)
  ) {
    return null;
  }
  if (journal.messages.length === 0) return null;
  const saved = session as { messages: unknown[] };
  return {
    session: {
      ...saved,
      messages: [...saved.messages, { role: 'user', content: journal.prompt }, ...journal.messages],
    },
    steps: journal.messages.length / 2,
  };
}
