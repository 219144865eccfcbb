/** Why a store call failed. */
export type SessionStoreErrorCode =
  /** Another writer changed the session since it was read (or the turn is not the one named). */
  | 'conflict'
  /** No such session (or no such waiting approval). */
  | 'not-found'
  /** A session with that id exists already. */
  | 'exists'
  /** What was passed in cannot be stored (bad id, title, metadata, or a value that is not JSON). */
  | 'invalid-input'
  /** A stored row cannot be read back (garbage, wrong shape, cut off). */
  | 'invalid-data'
  /** A record is larger than the limit of the store. */
  | 'too-large'
  /** The database was migrated by a newer codeagent than this one. */
  | 'schema-too-new'
  /** A migration was started and not finished: the database may be half migrated. */
  | 'migration-incomplete'
  /** The database (or the folder) cannot be reached. */
  | 'unavailable';

/** Every error code, in a fixed order. */
export const SESSION_STORE_ERROR_CODES: readonly SessionStoreErrorCode[] = [
  'conflict',
  'not-found',
  'exists',
  'invalid-input',
  'invalid-data',
  'too-large',
  'schema-too-new',
  'migration-incomplete',
  'unavailable',
];

/** Details of a `conflict`. */
export interface ConflictDetails {
  /** The version the writer named, when it named one. */
  readonly expectedVersion?: number;
  /** The version stored now. */
  readonly actualVersion?: number;
}

/** The one error type of every store: a code a host can switch on and a message it can show. */
export class SessionStoreError extends Error {
  override readonly name = 'SessionStoreError';
  readonly code: SessionStoreErrorCode;
  /** The session concerned, when there is one. */
  readonly sessionId: string | undefined;
  /** For `conflict`: what was expected and what is stored. */
  readonly conflict: ConflictDetails | undefined;

  constructor(
    code: SessionStoreErrorCode,
    message: string,
    options: { sessionId?: string; conflict?: ConflictDetails; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
    this.conflict = options.conflict;
  }
}

/** True when `error` is a {@link SessionStoreError} (with `code`, when given). */
export function isSessionStoreError(
  error: unknown,
  code?: SessionStoreErrorCode,
): error is SessionStoreError {
  return error instanceof SessionStoreError && (code === undefined || error.code === code);
}

/** The conflict error every implementation throws for a stale version. */
export function versionConflict(id: string, expected: number, actual: number): SessionStoreError {
  return new SessionStoreError(
    'conflict',
    `session "${id}" was changed by another writer (expected version ${expected}, stored version ${actual}); reload it and try again`,
    { sessionId: id, conflict: { expectedVersion: expected, actualVersion: actual } },
  );
}

/** The not-found error every implementation throws. */
export function notFound(id: string): SessionStoreError {
  return new SessionStoreError('not-found', `no session "${id}"`, { sessionId: id });
}
