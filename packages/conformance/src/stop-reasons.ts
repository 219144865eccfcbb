import { type ConformanceReport, inProcess, runSuite } from './run.js';

/** What the loop knows at the end of a turn (the argument of `mapStopReason`, as the vectors spell it). */
export interface StopFactsVector {
  /** The AI SDK's unified finish reason of the last step (`stop`, `length`, `tool-calls`, ...), or null for none. */
  readonly finishReason: string | null;
  /** The turn failed (a provider error, a throwing callback...). */
  readonly failed: boolean;
  /** The turn was aborted. */
  readonly aborted: boolean;
  /** The step budget (`maxTurns`) was used up. */
  readonly hitMaxTurns: boolean;
  /** The request was refused because the context stayed at the blocking level. */
  readonly budgetExceeded: boolean;
  /** Tool calls of the last step that got no result. */
  readonly unresolvedToolCalls: number;
}

/**
 * Runs the stop-reasons suite against a mapping function in this process (e.g. agent-core's `mapStopReason`): each
 * vector's facts in, the stop reason out, judged against the vector, with an optional expected-failures baseline.
 */
export function runStopReasonSuite(
  name: string,
  map: (facts: StopFactsVector) => string,
  options: { baseline?: ReadonlySet<string>; only?: readonly string[] } = {},
): Promise<ConformanceReport> {
  return runSuite(inProcess(name, { mapStopReason: map }), { ...options, suite: 'stop-reasons' });
}
