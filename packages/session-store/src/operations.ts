import { randomUUID } from 'node:crypto';
import { checkId, checkMeta, checkTitle, copyJson, documentCopy } from './codec.js';
import { notFound, SessionStoreError, versionConflict } from './errors.js';
import type {
  AppendStepInput,
  ApprovalAnswer,
  BeginTurnInput,
  CreateSessionInput,
  EndTurnInput,
  SessionPatch,
  SessionRecord,
  StoredApproval,
} from './types.js';

/*
 * The semantics every implementation shares: each write is a pure function of the stored record (or its absence)
 * and the input, giving the record to store or a typed error. The implementations only load, lock and write.
 */

/** A clock for the stored times (tests may pin it). */
export type Clock = () => Date;

function stamp(clock: Clock, previous?: string): string {
  const now = clock().toISOString();
  // Never go back in time for one record (clocks of two instances differ by a little).
  return previous !== undefined && previous > now ? previous : now;
}

function checkPending(pending: unknown, id: string): StoredApproval[] {
  if (!Array.isArray(pending))
    throw new SessionStoreError('invalid-input', 'pending must be a list', { sessionId: id });
  return pending.map((p: StoredApproval) => ({
    approvalId: String(p.approvalId),
    toolCallId: String(p.toolCallId),
    toolName: String(p.toolName),
    input: copyJson(p.input, 'an approval input', id),
    requestedAt: String(p.requestedAt),
    answer:
      p.answer === null || p.answer === undefined
        ? null
        : {
            approved: p.answer.approved === true,
            reason: typeof p.answer.reason === 'string' ? p.answer.reason : null,
            answeredAt: String(p.answer.answeredAt),
          },
  }));
}

/** A new record for {@link CreateSessionInput}; `exists` when one is stored. */
export function opCreate(
  existing: SessionRecord | undefined,
  input: CreateSessionInput,
  clock: Clock,
): SessionRecord {
  const id = checkId(input.id ?? randomUUID());
  if (existing) throw new SessionStoreError('exists', `a session "${id}" exists already`, { sessionId: id });
  const now = stamp(clock);
  return {
    id,
    version: 1,
    title: checkTitle(input.title, id),
    createdAt: now,
    updatedAt: now,
    meta: checkMeta(input.meta ?? {}, id),
    agent: input.agent === undefined || input.agent === null ? null : documentCopy(input.agent, 'agent', id),
    ui: input.ui === undefined || input.ui === null ? null : documentCopy(input.ui, 'ui', id),
    turn: null,
    pending: [],
  };
}

function current(id: string, record: SessionRecord | undefined, expectedVersion?: number): SessionRecord {
  if (!record) throw notFound(id);
  if (expectedVersion !== undefined && record.version !== expectedVersion)
    throw versionConflict(id, expectedVersion, record.version);
  return record;
}

function checkVersion(id: string, expectedVersion: number): void {
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 1)
    throw new SessionStoreError('invalid-input', `expected version must be a positive integer`, {
      sessionId: id,
    });
}

/** {@link SessionPatch} applied at `expectedVersion`. */
export function opUpdate(
  id: string,
  record: SessionRecord | undefined,
  expectedVersion: number,
  patch: SessionPatch,
  clock: Clock,
): SessionRecord {
  checkVersion(id, expectedVersion);
  const r = current(id, record, expectedVersion);
  if (patch.turn === null && r.turn?.state === 'running')
    throw new SessionStoreError(
      'conflict',
      `session "${id}" has a turn running; end it before forgetting it`,
      {
        sessionId: id,
        conflict: { actualVersion: r.version },
      },
    );
  if (patch.owner !== undefined && r.turn?.state !== 'running')
    throw new SessionStoreError('conflict', `session "${id}" has no running turn to take over`, {
      sessionId: id,
      conflict: { actualVersion: r.version },
    });
  const owner =
    patch.owner === undefined || patch.owner === null ? patch.owner : String(patch.owner).slice(0, 500);
  return {
    ...r,
    version: r.version + 1,
    updatedAt: stamp(clock, r.updatedAt),
    ...(owner !== undefined && r.turn !== null ? { turn: { ...r.turn, owner } } : {}),
    ...(patch.title !== undefined ? { title: checkTitle(patch.title, id) } : {}),
    ...(patch.meta !== undefined ? { meta: checkMeta(patch.meta, id) } : {}),
    ...(patch.agent !== undefined
      ? { agent: patch.agent === null ? null : documentCopy(patch.agent, 'agent', id) }
      : {}),
    ...(patch.ui !== undefined ? { ui: patch.ui === null ? null : documentCopy(patch.ui, 'ui', id) } : {}),
    ...(patch.pending !== undefined ? { pending: checkPending(patch.pending, id) } : {}),
    ...(patch.turn === null ? { turn: null } : {}),
  };
}

/** A running turn started at `expectedVersion`; a turn still running must be ended first (`conflict`). */
export function opBeginTurn(
  id: string,
  record: SessionRecord | undefined,
  expectedVersion: number,
  input: BeginTurnInput,
  clock: Clock,
): SessionRecord {
  checkVersion(id, expectedVersion);
  const r = current(id, record, expectedVersion);
  if (r.turn?.state === 'running')
    throw new SessionStoreError(
      'conflict',
      `session "${id}" has a turn running (${r.turn.owner ?? 'owner unknown'}); end or interrupt it first`,
      { sessionId: id, conflict: { actualVersion: r.version } },
    );
  const now = stamp(clock, r.updatedAt);
  return {
    ...r,
    version: r.version + 1,
    updatedAt: now,
    ...(input.title !== undefined ? { title: checkTitle(input.title, id) } : {}),
    ...(input.agent !== undefined
      ? { agent: input.agent === null ? null : documentCopy(input.agent, 'agent', id) }
      : {}),
    turn: {
      id: checkId(input.turnId ?? randomUUID()),
      state: 'running',
      owner: input.owner === null ? null : String(input.owner).slice(0, 500),
      prompt: copyJson(input.prompt, 'the turn prompt', id),
      steps: [],
      startedAt: now,
      updatedAt: now,
    },
  };
}

function runningTurn(id: string, r: SessionRecord, turnId: string) {
  const turn = r.turn;
  if (turn === null || turn.id !== turnId)
    throw new SessionStoreError(
      'conflict',
      `session "${id}" does not run turn "${turnId}" (another turn replaced it)`,
      {
        sessionId: id,
        conflict: { actualVersion: r.version },
      },
    );
  if (turn.state !== 'running')
    throw new SessionStoreError(
      'conflict',
      `turn "${turnId}" of session "${id}" is ${turn.state}, not running`,
      {
        sessionId: id,
        conflict: { actualVersion: r.version },
      },
    );
  return turn;
}

/**
 * The step appended at `seq`; `null` when exactly this step is stored there already (a retried write), `conflict`
 * when another step is, or when `seq` leaves a gap.
 */
export function opAppendStep(
  id: string,
  record: SessionRecord | undefined,
  input: AppendStepInput,
  clock: Clock,
): SessionRecord | null {
  const r = current(id, record);
  const turn = runningTurn(id, r, input.turnId);
  const step = copyJson(input.step, 'a step', id);
  if (!Number.isSafeInteger(input.seq) || input.seq < 0)
    throw new SessionStoreError('invalid-input', 'a step position must be a non-negative integer', {
      sessionId: id,
    });
  if (input.seq < turn.steps.length) {
    if (JSON.stringify(turn.steps[input.seq]) === JSON.stringify(step)) return null;
    throw new SessionStoreError(
      'conflict',
      `step ${input.seq} of turn "${input.turnId}" was written by another writer`,
      {
        sessionId: id,
        conflict: { actualVersion: r.version },
      },
    );
  }
  if (input.seq > turn.steps.length)
    throw new SessionStoreError(
      'conflict',
      `step ${input.seq} of turn "${input.turnId}" comes after ${turn.steps.length} stored steps`,
      { sessionId: id, conflict: { actualVersion: r.version } },
    );
  const now = stamp(clock, r.updatedAt);
  return {
    ...r,
    version: r.version + 1,
    updatedAt: now,
    turn: { ...turn, steps: [...turn.steps, step], updatedAt: now },
  };
}

/** The turn ended; a `done` turn with an agent snapshot drops its steps (the snapshot holds them). */
export function opEndTurn(
  id: string,
  record: SessionRecord | undefined,
  input: EndTurnInput,
  clock: Clock,
): SessionRecord {
  const r = current(id, record);
  const turn = runningTurn(id, r, input.turnId);
  const now = stamp(clock, r.updatedAt);
  const folded = input.state === 'done' && input.agent !== undefined;
  return {
    ...r,
    version: r.version + 1,
    updatedAt: now,
    ...(input.agent !== undefined
      ? { agent: input.agent === null ? null : documentCopy(input.agent, 'agent', id) }
      : {}),
    ...(input.ui !== undefined ? { ui: input.ui === null ? null : documentCopy(input.ui, 'ui', id) } : {}),
    ...(input.clearPending === false ? {} : { pending: [] }),
    turn: { ...turn, state: input.state, updatedAt: now, steps: folded ? [] : turn.steps },
  };
}

/** The answer recorded on the waiting approval `approvalId`. */
export function opAnswer(
  id: string,
  record: SessionRecord | undefined,
  approvalId: string,
  answer: Omit<ApprovalAnswer, 'answeredAt'>,
  clock: Clock,
): SessionRecord {
  const r = current(id, record);
  const index = r.pending.findIndex((p) => p.approvalId === approvalId);
  const found = r.pending[index];
  if (found === undefined)
    throw new SessionStoreError(
      'not-found',
      `session "${id}" waits for no approval "${approvalId.slice(0, 80)}"`,
      {
        sessionId: id,
      },
    );
  if (found.answer !== null)
    throw new SessionStoreError('conflict', `approval "${approvalId.slice(0, 80)}" was answered already`, {
      sessionId: id,
      conflict: { actualVersion: r.version },
    });
  const now = stamp(clock, r.updatedAt);
  const pending = r.pending.slice();
  pending[index] = {
    ...found,
    answer: {
      approved: answer.approved === true,
      reason: typeof answer.reason === 'string' ? answer.reason.slice(0, 10_000) : null,
      answeredAt: now,
    },
  };
  return { ...r, version: r.version + 1, updatedAt: now, pending };
}

/** Checks a deletion may go ahead (`conflict` for a stale `expectedVersion`); false when there is nothing. */
export function opDelete(id: string, record: SessionRecord | undefined, expectedVersion?: number): boolean {
  if (!record) return false;
  if (expectedVersion !== undefined) {
    checkVersion(id, expectedVersion);
    current(id, record, expectedVersion);
  }
  return true;
}

/** The number of approvals that wait for an answer. */
export function waitingCount(pending: readonly StoredApproval[]): number {
  return pending.filter((p) => p.answer === null).length;
}
