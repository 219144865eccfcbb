/** Stable error codes thrown by this package. */
export type PermissionGateErrorCode =
  | 'invalid-config'
  | 'invalid-rule'
  | 'builtin-meta-locked'
  | 'invalid-tool-meta';

/** One problem found in a permission configuration, with the path that names it. */
export interface ConfigIssue {
  /** Dotted path to the offending value, e.g. `rules.deny[2]`. */
  readonly path: string;
  /** What is wrong with it. */
  readonly message: string;
}

/** The base error of this package; `code` is stable, `message` is for humans. */
export class PermissionGateError extends Error {
  /** A stable machine-readable code. */
  readonly code: PermissionGateErrorCode;
  /** Every problem found, each naming its path (empty for non-config errors). */
  readonly issues: readonly ConfigIssue[];

  constructor(code: PermissionGateErrorCode, message: string, issues: readonly ConfigIssue[] = []) {
    super(message);
    this.name = 'PermissionGateError';
    this.code = code;
    this.issues = issues;
  }
}

/** Builds the error for a list of config issues, one line per issue. */
export function configError(issues: readonly ConfigIssue[]): PermissionGateError {
  const lines = issues.map((i) => `${i.path}: ${i.message}`);
  const code = issues.every((i) => i.message.startsWith('unparsable rule'))
    ? 'invalid-rule'
    : 'invalid-config';
  return new PermissionGateError(code, lines.join('\n'), issues);
}

/** Renders any value for an error message: short, quoted, with control and bidi characters escaped. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}

/** Quotes a string for an error message, escaping control/bidi characters and truncating long input. */
export function quote(s: string): string {
  const cut = s.length > 80 ? `${s.slice(0, 80)}…` : s;
  const safe = cut.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069"\\]/g, (c) =>
    c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${safe}"`;
}

/** Renders an object key as a path step: `.name` for identifiers, `["odd key"]` otherwise. */
export function pathKey(k: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(k) ? `.${k}` : `[${quote(k)}]`;
}
