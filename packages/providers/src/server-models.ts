import { isRecord } from '@codeagent/artifact-schema/internal';

type FetchFunction = typeof globalThis.fetch;

/** What an OpenAI-compatible server says about one model in its `/models` listing. */
export interface ServerModelInfo {
  /** The model's context window in tokens, when the server states it. */
  readonly contextWindow: number | null;
  /** Where it was read from (`context_length`, `max_model_len`, ...), or null. */
  readonly field: string | null;
}

/** Fields servers use for the context window: OpenRouter / LM Studio / vLLM / TGI-style / llama.cpp's `meta`. */
const WINDOW_FIELDS = [
  'context_length',
  'context_window',
  'max_context_length',
  'max_model_len',
  'max_input_tokens',
  'meta.n_ctx',
  'meta.n_ctx_train',
] as const;

/** The largest context window believed (100M tokens); anything above is treated as garbage. */
const MAX_WINDOW = 100_000_000;

function pick(entry: Record<string, unknown>, field: string): unknown {
  let current: unknown = entry;
  for (const key of field.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function windowOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,9}$/u.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 256 && n <= MAX_WINDOW ? n : null;
}

/**
 * Reads the context window of `modelId` from a parsed `/models` response (`{data: [{id, ...}]}` or a bare array).
 * Tolerant: unknown shapes, missing or implausible numbers (below 256, above 100M, fractions) give `null`.
 */
export function parseServerModels(listing: unknown, modelId: string): ServerModelInfo {
  const none = { contextWindow: null, field: null };
  const data = isRecord(listing) ? listing.data : listing;
  if (!Array.isArray(data)) return none;
  const entry = data.find(
    (item): item is Record<string, unknown> =>
      typeof item === 'object' && item !== null && (item as Record<string, unknown>).id === modelId,
  );
  if (entry === undefined) return none;
  for (const field of WINDOW_FIELDS) {
    const n = windowOf(pick(entry, field));
    if (n !== null) return { contextWindow: n, field };
  }
  return none;
}

/** Options of {@link fetchServerModelInfo}. */
export interface FetchServerModelOptions {
  /** Bearer key, when the server needs one. */
  readonly apiKey?: string | undefined;
  /** Give up after this long (default 1500 ms): the lookup must never delay a session noticeably. */
  readonly timeoutMs?: number | undefined;
  /** Custom fetch. */
  readonly fetch?: FetchFunction | undefined;
}

/**
 * Asks an OpenAI-compatible server's `GET <baseURL>/models` for the model's context window. Never throws: a server
 * without the endpoint, a slow one, a huge or malformed body all give `{contextWindow: null}`.
 */
export async function fetchServerModelInfo(
  baseURL: string,
  modelId: string,
  options: FetchServerModelOptions = {},
): Promise<ServerModelInfo> {
  const none = { contextWindow: null, field: null };
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 1500);
  try {
    const response = await fetchImpl(`${baseURL.replace(/\/+$/u, '')}/models`, {
      headers: {
        accept: 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return none;
    }
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > 8 * 1024 * 1024) {
      await response.body?.cancel().catch(() => undefined);
      return none;
    }
    const text = await response.text();
    if (text.length > 8 * 1024 * 1024) return none;
    return parseServerModels(JSON.parse(text), modelId);
  } catch {
    return none;
  }
}
