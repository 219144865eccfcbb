import { readFile } from 'node:fs/promises';
import type { AgentEvent } from '@codeagent/agent-core';
import { createStepRecorder } from '@codeagent/session-store';
import type { TurnSink } from './sessions.js';

/**
 * Follows the turn in flight and hands each completed step (every tool call of the model's answer has its result)
 * to the session store, which saves it at once, so a process killed mid-turn loses at most the step in flight. The
 * next resume appends the saved steps to the conversation and says the turn was interrupted.
 */
export class TurnJournal {
  #sink: TurnSink | null = null;
  readonly #recorder = createStepRecorder((step) => this.#sink?.step(step.messages));

  /** Starts a turn: `sink` saves its steps (null: keep none). */
  begin(sink: TurnSink | null, prompt: string): void {
    this.#sink = sink;
    this.#recorder.reset();
    sink?.begin(prompt);
  }

  /** Follows the turn's events; hands a step to the sink when it completes. */
  record(event: AgentEvent): void {
    this.#recorder.record(event);
  }

  /** The turn ended (the session is saved whole, with it the turn). */
  end(): void {
    this.#sink = null;
  }
}

/**
 * Applies the journal an earlier CLI wrote for an interrupted turn (`<session>.turn-journal`) to a saved session
 * (agent-core session JSON): the turn's prompt and its completed steps are appended to `messages`. Returns null when
 * there is no usable journal. The next save removes the file.
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
