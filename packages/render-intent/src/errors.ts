import { unreachableMessage } from '@codeagent/artifact-schema/internal';

// The never-throwing JSON excerpt of error messages and card text: one implementation, shared (ADR 0230).
export { safeJson } from '@codeagent/artifact-schema/internal';

/** Stable codes carried by {@link RenderIntentError}. */
export type RenderIntentErrorCode = 'unreachable-variant';

/** The package's one error class; `code` is stable, the message is for humans. */
export class RenderIntentError extends Error {
  /** Stable machine-readable code. */
  readonly code: RenderIntentErrorCode;

  /** Creates an error with a stable `code`. */
  constructor(code: RenderIntentErrorCode, message: string) {
    super(message);
    this.name = 'RenderIntentError';
    this.code = code;
  }
}

/**
 * Marks a branch the type checker proved unreachable; at run time (a value forced through a cast,
 * or data from a newer peer) it throws `unreachable variant in <ctx>: <json>` as a `RenderIntentError`.
 */
export function assertNever(value: never, ctx = 'switch'): never {
  throw new RenderIntentError('unreachable-variant', unreachableMessage(value, ctx));
}
