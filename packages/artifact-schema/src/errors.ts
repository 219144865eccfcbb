/**
 * Stable machine-readable codes carried by {@link ArtifactSchemaError}.
 *
 * - `invalid-value`: the portable value given to `toolResult` is not a string.
 * - `invalid-options`: an options argument is not a plain object.
 * - `invalid-kind`: `kind` is not a non-empty string.
 * - `invalid-payload`: `payload` is not a JSON-serialisable plain object or array.
 * - `missing-payload`: a kind other than `text` or `error` was given without a payload.
 * - `invalid-title` / `invalid-icon`: not `null` or a string.
 * - `invalid-status`: not a non-empty string, or contradicts `kind: "error"`.
 * - `invalid-version-option`: the `version` accessor option is not a positive integer, a non-empty list of them, or `null`.
 * - `invalid-fallback`: the fallback of `toolResultValue` is not a string.
 * - `invalid-html`: `trustedHtml` was given something other than a string.
 */
export type ArtifactSchemaErrorCode =
  | 'invalid-value'
  | 'invalid-options'
  | 'invalid-kind'
  | 'invalid-payload'
  | 'missing-payload'
  | 'invalid-title'
  | 'invalid-icon'
  | 'invalid-status'
  | 'invalid-version-option'
  | 'invalid-fallback'
  | 'invalid-html';

/**
 * The package's base error: a `TypeError` (programmer errors at tool-authoring time) with a stable string `code`.
 */
export class ArtifactSchemaError extends TypeError {
  /** Stable machine-readable code; match on this, not on the message. */
  readonly code: ArtifactSchemaErrorCode;

  /** Creates an error with a stable `code` and a human-readable message. */
  constructor(code: ArtifactSchemaErrorCode, message: string) {
    super(message);
    this.name = 'ArtifactSchemaError';
    this.code = code;
  }
}
