import { checkId, withDecodedDocuments } from './codec.js';
import { isSessionStoreError, notFound } from './errors.js';
import {
  type Clock,
  opAnswer,
  opAppendStep,
  opBeginTurn,
  opCreate,
  opDelete,
  opEndTurn,
  opUpdate,
} from './operations.js';
import type {
  AppendStepInput,
  ApprovalAnswer,
  BeginTurnInput,
  CreateSessionInput,
  EndTurnInput,
  ListOptions,
  SessionChange,
  SessionPatch,
  SessionRecord,
  SessionStore,
  SessionSummary,
} from './types.js';

/** What a mutation decides: the record to write, nothing to write (`null`), or a deletion. */
export type Mutation = SessionRecord | null | { readonly delete: true };

/**
 * What a write replaces whole whatever was stored, so an implementation may skip reading it first (a large column);
 * the record `fn` gets then has `null` there. Only a hint: an implementation may read everything.
 */
export interface MutationHint {
  /** The write sets `agent` (the operation never reads the stored one). */
  readonly replacesAgent?: boolean;
  /** The write sets `ui`. */
  readonly replacesUi?: boolean;
}

/**
 * The shared front of every implementation: checks inputs, applies the shared operations and reports changes.
 * An implementation provides reading and one atomic primitive, `mutate`: load the record under a lock (or in a
 * transaction), apply `fn`, write what it returns (`previous` tells what changed).
 */
export abstract class BaseStore implements SessionStore {
  abstract readonly kind: SessionStore['kind'];
  readonly #listeners = new Set<(change: SessionChange) => void>();
  protected readonly clock: Clock;

  constructor(clock: Clock = () => new Date()) {
    this.clock = clock;
  }

  /** Sessions, newest first. */
  abstract list(options?: ListOptions): Promise<SessionSummary[]>;
  /** Reads one record (no lock). */
  protected abstract load(id: string): Promise<SessionRecord | undefined>;
  /** Atomically: load, decide, write. Returns what `fn` returned. */
  protected abstract mutate(
    id: string,
    fn: (current: SessionRecord | undefined) => Mutation,
    hint?: MutationHint,
  ): Promise<{ result: Mutation; previous: SessionRecord | undefined }>;
  /** Releases resources. */
  abstract close(): Promise<void>;

  async get(id: string): Promise<SessionRecord | undefined> {
    return this.load(checkId(id));
  }

  protected notify(change: SessionChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  subscribe(listener: (change: SessionChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #write(
    id: string,
    fn: (current: SessionRecord | undefined) => Mutation,
    hint?: MutationHint,
  ): Promise<SessionRecord> {
    const { result, previous } = await this.mutate(id, fn, hint);
    if (result === null) {
      if (!previous) throw notFound(id);
      return withDecodedDocuments(previous);
    }
    if ('delete' in result) throw new Error('unreachable: a write returned a deletion');
    this.notify({ id, version: result.version });
    return withDecodedDocuments(result);
  }

  async create(input: CreateSessionInput): Promise<SessionRecord> {
    // The id is fixed before the lock, so a generated one is the same in `fn` and in the write.
    const fixed = { ...input, id: checkId(input.id ?? crypto.randomUUID()) };
    return this.#write(fixed.id, (current) => opCreate(current, fixed, this.clock));
  }

  async update(id: string, expectedVersion: number, patch: SessionPatch): Promise<SessionRecord> {
    checkId(id);
    return this.#write(id, (current) => opUpdate(id, current, expectedVersion, patch, this.clock), {
      replacesAgent: patch.agent !== undefined,
      replacesUi: patch.ui !== undefined,
    });
  }

  async beginTurn(id: string, expectedVersion: number, input: BeginTurnInput): Promise<SessionRecord> {
    checkId(id);
    const fixed = { ...input, turnId: checkId(input.turnId ?? crypto.randomUUID()) };
    return this.#write(id, (current) => opBeginTurn(id, current, expectedVersion, fixed, this.clock));
  }

  async appendStep(id: string, input: AppendStepInput): Promise<SessionRecord> {
    checkId(id);
    return this.#write(id, (current) => opAppendStep(id, current, input, this.clock));
  }

  async endTurn(id: string, input: EndTurnInput): Promise<SessionRecord> {
    checkId(id);
    return this.#write(id, (current) => opEndTurn(id, current, input, this.clock), {
      replacesAgent: input.agent !== undefined,
      replacesUi: input.ui !== undefined,
    });
  }

  async answerApproval(
    id: string,
    approvalId: string,
    answer: Omit<ApprovalAnswer, 'answeredAt'>,
  ): Promise<SessionRecord> {
    checkId(id);
    return this.#write(id, (current) => opAnswer(id, current, String(approvalId), answer, this.clock));
  }

  async delete(id: string, expectedVersion?: number): Promise<boolean> {
    checkId(id);
    try {
      const { result } = await this.mutate(id, (current) =>
        opDelete(id, current, expectedVersion) ? { delete: true } : null,
      );
      if (result === null) return false;
    } catch (error) {
      if (isSessionStoreError(error, 'not-found')) return false;
      throw error;
    }
    this.notify({ id, version: null });
    return true;
  }
}
