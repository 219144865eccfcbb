/** Stable machine-readable codes carried by every {@link ToolError}. */
export type ToolErrorCode =
  | 'invalid-input'
  | 'outside-workspace'
  | 'not-found'
  | 'is-directory'
  | 'not-a-directory'
  | 'not-a-file'
  | 'binary-file'
  | 'not-utf8'
  | 'file-too-large'
  | 'edit-no-match'
  | 'edit-ambiguous'
  | 'edit-no-change'
  | 'file-exists'
  | 'hard-link'
  | 'changed-since-approval'
  | 'invalid-regex'
  | 'regex-timeout'
  | 'spawn-failed'
  | 'aborted'
  | 'unknown-job'
  | 'permission-denied'
  | 'io-error';

const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const MAX_MESSAGE = 1000;

/** Escapes control characters (a path may contain `\n`) and caps the length, so a message stays one line. */
function oneLineMessage(message: string): string {
  const escaped = message.replace(CONTROLS, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > MAX_MESSAGE ? `${escaped.slice(0, MAX_MESSAGE)}… [message cut]` : escaped;
}

/** The one error class of this package: a clear one-line message plus a stable `code`. */
export class ToolError extends Error {
  /** Stable code a host can switch on; the message is for people and models. */
  readonly code: ToolErrorCode;

  /** Builds an error; the message should be a single line that says what to do. */
  constructor(code: ToolErrorCode, message: string, options?: { cause?: unknown }) {
    super(oneLineMessage(message), options);
    this.name = 'ToolError';
    this.code = code;
  }
}

/** Node's errno-style code of an unknown thrown value, or `undefined`. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** One-line message for any thrown value (first line only, never a stack). */
export function oneLine(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const first = raw.split(/\r?\n/, 1)[0] ?? '';
  return first.trim() === '' ? 'Unknown error' : first.trim();
}
