/** Stable codes carried by {@link SkillError}. */
export type SkillErrorCode = 'SKILL_NOT_FOUND' | 'SKILL_UNREADABLE' | 'INVALID_TOOL_INPUT';

/** The package's one error class; `code` is stable and safe to switch on. */
export class SkillError extends Error {
  /** Stable machine-readable error code. */
  readonly code: SkillErrorCode;
  /** Names of the skills that were available when the error was raised (sorted). */
  readonly available: readonly string[];

  constructor(
    code: SkillErrorCode,
    message: string,
    options: { available?: readonly string[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkillError';
    this.code = code;
    this.available = options.available ?? [];
  }
}

/** Narrows an unknown thrown value to a {@link SkillError}, optionally with a given code. */
export function isSkillError(value: unknown, code?: SkillErrorCode): value is SkillError {
  return value instanceof SkillError && (code === undefined || value.code === code);
}
