/** Stable codes carried by {@link SkillError}. */
export type SkillErrorCode = 'skill-not-found' | 'skill-unreadable' | 'invalid-tool-input';

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

/** The spellings the codes had before they became kebab-case (ADR 0200), by their current code. */
const LEGACY_CODES: Readonly<Record<string, SkillErrorCode>> = {
  SKILL_NOT_FOUND: 'skill-not-found',
  SKILL_UNREADABLE: 'skill-unreadable',
  INVALID_TOOL_INPUT: 'invalid-tool-input',
};

/** Narrows an unknown thrown value to a {@link SkillError}, optionally with a given code. */
export function isSkillError(value: unknown, code?: SkillErrorCode): value is SkillError;
/**
 * Narrows to a {@link SkillError} with a code in its old SCREAMING_SNAKE spelling.
 * @deprecated The codes are kebab-case (`'skill-not-found'`): pass the new spelling.
 */
export function isSkillError(
  value: unknown,
  code: 'SKILL_NOT_FOUND' | 'SKILL_UNREADABLE' | 'INVALID_TOOL_INPUT',
): value is SkillError;
export function isSkillError(value: unknown, code?: string): value is SkillError {
  if (!(value instanceof SkillError)) return false;
  return code === undefined || value.code === (Object.hasOwn(LEGACY_CODES, code) ? LEGACY_CODES[code] : code);
}
