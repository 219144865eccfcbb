import { APICallError } from '@ai-sdk/provider';

/** Stable codes of {@link AgentCoreError}. */
export type AgentCoreErrorCode =
  | 'invalid-options'
  | 'invalid-tool'
  | 'duplicate-tool'
  | 'invalid-session'
  | 'turn-in-progress'
  | 'callback-failed'
  | 'compaction-failed'
  | 'invalid-resume'
  | 'resume-claimed';

/** The package's one error class, with a stable string `code`. */
export class AgentCoreError extends Error {
  /** Stable machine-readable code. */
  readonly code: AgentCoreErrorCode;

  /** Creates an error with a code and a message. */
  constructor(code: AgentCoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentCoreError';
    this.code = code;
  }
}

/** How the loop classifies a failed model request. */
export type ErrorClass = 'rate-limit' | 'network' | 'server' | 'auth' | 'prompt-too-long' | 'abort' | 'other';

const PROMPT_TOO_LONG =
  /prompt is too long|context[_ ]length[_ ]exceeded|maximum context length|context window|too many tokens|input is too long|request too large/i;
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENETUNREACH',
]);

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 5; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True for an abort error of any origin (DOM AbortError, AI SDK abort). */
export function isAbortError(e: unknown): boolean {
  return (
    typeof e === 'object' &&
    e !== null &&
    ((e as { name?: unknown }).name === 'AbortError' || (e as { name?: unknown }).name === 'TimeoutError')
  );
}

/** Classifies an error thrown by a model request. */
export function classifyError(e: unknown): ErrorClass {
  if (isAbortError(e)) return 'abort';
  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    const body = `${e.message} ${typeof e.responseBody === 'string' ? e.responseBody.slice(0, 2000) : ''}`;
    if (status === 429) return 'rate-limit';
    if (status === 401 || status === 403) return 'auth';
    if ((status === 400 || status === 413) && PROMPT_TOO_LONG.test(body)) return 'prompt-too-long';
    if (status !== undefined && (status >= 500 || status === 408)) return 'server';
    if (status === undefined) return e.isRetryable || errorCode(e) ? 'network' : 'other';
    return 'other';
  }
  if (errorCode(e)) return 'network';
  const message = e instanceof Error ? e.message : String(e);
  if (/fetch failed|socket hang up|terminated|network/i.test(message)) return 'network';
  if (PROMPT_TOO_LONG.test(message)) return 'prompt-too-long';
  return 'other';
}

/** Reads the retry delay a provider asked for (`retry-after-ms`, `retry-after` seconds or HTTP date), in ms. */
export function retryAfterMs(e: unknown, now: number = Date.now()): number | undefined {
  if (!APICallError.isInstance(e) || !e.responseHeaders) return undefined;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.responseHeaders)) headers[k.toLowerCase()] = v;
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const ra = headers['retry-after'];
  if (ra === undefined) return undefined;
  const seconds = Number(ra);
  if (ra.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  // Only an HTTP date (it has a weekday and a month name); "-5" must not parse as the year -5.
  const date = /[a-z]/i.test(ra) ? Date.parse(ra) : Number.NaN;
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

function describeUnknown(e: unknown): string {
  try {
    if (e instanceof Error) return e.message || e.name;
    if (typeof e === 'string') return e;
    const json = JSON.stringify(e);
    if (json !== undefined) return json;
  } catch {
    // Cycles, BigInt, throwing getters or toJSON: fall through to String().
  }
  try {
    return String(e);
  } catch {
    return Object.prototype.toString.call(e);
  }
}

/** A short, single-line message for any thrown value (never the whole response body); never throws. */
export function errorMessage(e: unknown): string {
  const oneLine = describeUnknown(e).replace(/\s+/g, ' ').trim();
  return oneLine.length > 500 ? `${oneLine.slice(0, 497)}...` : oneLine || 'Unknown error';
}
