import type { StreamOptions } from './events.js';

/** One tool call of a {@link PendingStep}, as the model made it. */
export interface PendingCall {
  /** The tool call id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments as the model sent them (with `_intent` when it gave one). */
  readonly arguments: unknown;
}

/** The result of a {@link PendingStep}'s call that finished before the turn stopped: what the model sees. */
export interface PendingResult {
  /** The tool call id. */
  readonly id: string;
  /** The model-facing value. */
  readonly value: string;
  /** Whether the call failed (the model gets it as an error). */
  readonly isError: boolean;
}

/**
 * A model step whose tool calls do not all have a result yet: a turn parked on approvals, as a host stores it
 * (`client.pendingStep()`) to continue it later, maybe in another process ({@link ResumeInput}). Plain JSON.
 */
export interface PendingStep {
  /** The text the model wrote in this step. */
  readonly text: string;
  /** The step's tool calls, in the order the model made them. */
  readonly calls: readonly PendingCall[];
  /** Results of the calls that finished; every other call waits (for an approval). */
  readonly results: readonly PendingResult[];
  /** Model requests the turn made, this step's included (a resumed turn has `maxTurns` minus these left). */
  readonly requests: number;
}

/** The user's answer to the approval of one waiting call of a {@link PendingStep}. */
export interface ResumeAnswer {
  /** The tool call id. */
  readonly id: string;
  /** Only a literal `true` approves. */
  readonly approved: boolean;
  /** `session` ("allow always"): the permission gate's scoped grant, as for a live answer; default `once`. */
  readonly scope?: 'once' | 'session';
  /**
   * The input the user was shown and approved (`_intent`, display only, is ignored): a call whose stored arguments
   * differ from it is denied, so what runs is what was approved.
   */
  readonly input: unknown;
}

/** What {@link resumeTurn} continues: the stored step and the answers for its waiting calls. */
export interface ResumeInput {
  /** The step the turn stopped in (untrusted: validated before anything runs). */
  readonly step: PendingStep;
  /** Answers by tool call id; a waiting call without an answer, or with two that disagree, is denied. */
  readonly answers: readonly ResumeAnswer[];
}

/** Options of {@link resumeTurn} and {@link resumeTurnEvents}. */
export interface ResumeOptions extends StreamOptions {
  /**
   * Called once, after the step and the answers were validated and before any tool runs: `false` (or a rejection)
   * means someone else continues this turn (another instance took it), and the resume ends with an error, running
   * nothing. A host with several instances makes this one checked write in its store.
   */
  readonly claim?: () => boolean | PromiseLike<boolean>;
}
