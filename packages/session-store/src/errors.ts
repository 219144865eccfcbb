/** Why a store call failed. */
export type SessionStoreErrorCode =
  /** Another writer changed the session since it was read (or the turn is not the one named). */
  | 'CONFLICT'
  /** No such session (or no such waiting approval). */
  | 'NOT_FOUND'
  /** A session with that id exists already. */
  | 'EXISTS'
  /** What was passed in cannot be stored (bad id, title, metadata, or a value that is not JSON). */
  | 'INVALID_INPUT'
  /** A stored row cannot be read back (garbage, wrong shape, cut off). */
  | 'INVALID_DATA'
  /** A record is larger than the store's limit. */
  | 'TOO_LARGE'
  /** The database was migrated by a newer codeagent than this one. */
  | 'SCHEMA_TOO_NEW'
  /** A migration was started and not finished: the database may be half migrated. */
  | 'MIGRATION_INCOMPLETE'
  /** The database (or the folder) cannot be reached. */
  | 'UNAVAILABLE';

/** Every error code, in a fixed order. */
export const SESSION_STORE_ERROR_CODES: readonly SessionStoreErrorCode[] = [
  'CONFLICT',
  'NOT_FOUND',
  'EXISTS',
  'INVALID_INPUT',
  'INVALID_DATA',
  'TOO_LARGE',
  'SCHEMA_TOO_NEW',
  'MIGRATION_INCOMPLETE',
  'UNAVAILABLE',
];

/** Details of a `CONFLICT`. */
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
  /** For `CONFLICT`: what was expected and what is stored. */
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
    'CONFLICT',
    `session "${id}" was changed by another writer (expected version ${expected}, stored version ${actual}); reload it and try again`,
    { sessionId: id, conflict: { expectedVersion: expected, actualVersion: actual } },
  );
}

/** The not-found error every implementation throws. */
export function notFound(id: string): SessionStoreError {
  return new SessionStoreError('NOT_FOUND', `no session "${id}"`, { sessionId: id });
}
