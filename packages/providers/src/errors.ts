/** Stable string codes carried by every {@link ProvidersError}. */
export type ProvidersErrorCode =
  | 'missing-config'
  | 'invalid-config'
  | 'unknown-provider'
  | 'ambiguous-provider'
  | 'invalid-script'
  | 'stalled';

/** The one error class of `@codeagent/providers`: a clear message plus a stable `code` to branch on. */
export class ProvidersError extends Error {
  /** Machine-readable reason, stable across versions. */
  readonly code: ProvidersErrorCode;
  /** The configuration field or environment variable at fault, when there is one. */
  readonly field: string | undefined;

  constructor(code: ProvidersErrorCode, message: string, options?: { field?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProvidersError';
    this.code = code;
    this.field = options?.field;
  }
}

/** Narrows an unknown thrown value to a {@link ProvidersError}. */
export function isProvidersError(value: unknown): value is ProvidersError {
  return value instanceof ProvidersError;
}
