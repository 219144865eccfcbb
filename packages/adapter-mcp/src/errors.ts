/** Stable codes of {@link McpAdapterError}. */
export type McpAdapterErrorCode =
  | 'invalid-config'
  | 'config-unreadable'
  | 'server-unavailable'
  | 'tool-call-failed'
  | 'tool-not-offered'
  | 'prompt-failed';

/** The one error type of `@codeagent/adapter-mcp`, with a stable `code`. */
export class McpAdapterError extends Error {
  /** Stable code, for hosts that branch on the failure. */
  readonly code: McpAdapterErrorCode;

  /** Creates an error with a code and a message that names what failed. */
  constructor(code: McpAdapterErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpAdapterError';
    this.code = code;
  }
}
