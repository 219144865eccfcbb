/** Stable codes of {@link McpAdapterError}. */
export type McpAdapterErrorCode =
  | 'INVALID_CONFIG'
  | 'CONFIG_UNREADABLE'
  | 'SERVER_UNAVAILABLE'
  | 'TOOL_CALL_FAILED'
  | 'TOOL_NOT_OFFERED'
  | 'PROMPT_FAILED';

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
