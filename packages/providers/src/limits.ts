import { ProvidersError } from './errors.js';

/** Token limits of one model: how much fits in its context and how much it may write per answer. */
export interface ModelLimits {
  /** Total tokens the model accepts (prompt plus answer). */
  readonly contextWindow: number;
  /** Most tokens the model writes in one answer. */
  readonly maxOutputTokens: number;
}

/** One row of the limits table: model ids starting with `prefix` (after normalisation) get these limits. */
export interface ModelLimitsEntry extends ModelLimits {
  /** Lower-case model-id prefix; the longest matching prefix wins. */
  readonly prefix: string;
}

/** Limits used for a model id that no table row matches: deliberately conservative, so compaction starts early. */
export const DEFAULT_MODEL_LIMITS: ModelLimits = Object.freeze({
  contextWindow: 32_768,
  maxOutputTokens: 4_096,
});

/** The built-in limits table, from the vendors' published model pages; override per model when yours differs. */
export const MODEL_LIMITS: readonly ModelLimitsEntry[] = Object.freeze(
  (
    [
      // Anthropic
      ['claude-opus-4-5', 200_000, 64_000],
      ['claude-opus-4', 200_000, 32_000],
      ['claude-sonnet-4', 200_000, 64_000],
      ['claude-haiku-4', 200_000, 64_000],
      ['claude-3-7-sonnet', 200_000, 64_000],
      ['claude-3-5-sonnet', 200_000, 8_192],
      ['claude-3-5-haiku', 200_000, 8_192],
      ['claude-3', 200_000, 4_096],
      // OpenAI
      ['gpt-5', 400_000, 128_000],
      ['gpt-4.1', 1_047_576, 32_768],
      ['gpt-4o', 128_000, 16_384],
      ['gpt-4-turbo', 128_000, 4_096],
      ['gpt-4', 8_192, 8_192],
      ['gpt-3.5-turbo', 16_385, 4_096],
      ['gpt-oss', 131_072, 32_768],
      ['o1', 200_000, 100_000],
      ['o3', 200_000, 100_000],
      ['o4-mini', 200_000, 100_000],
      // Open-weight models commonly served by Ollama, vLLM or LM Studio
      ['llama3.1', 131_072, 8_192],
      ['llama3.2', 131_072, 8_192],
      ['llama3.3', 131_072, 8_192],
      ['llama-3.1', 131_072, 8_192],
      ['llama-3.3', 131_072, 8_192],
      ['qwen2.5-coder', 32_768, 8_192],
      ['qwen2.5', 32_768, 8_192],
      ['qwen3', 40_960, 8_192],
      ['deepseek-r1', 131_072, 8_192],
      ['deepseek-coder-v2', 163_840, 8_192],
      ['mistral', 32_768, 8_192],
      ['codestral', 32_768, 8_192],
      ['gemma3', 131_072, 8_192],
      // The scripted model of this package
      ['scripted', 200_000, 8_192],
      ['codeagent-demo', 200_000, 8_192],
    ] as const
  ).map(([prefix, contextWindow, maxOutputTokens]) =>
    Object.freeze({ prefix, contextWindow, maxOutputTokens }),
  ),
);

/** Partial limits given by a user; each given field replaces the table's value. */
export interface ModelLimitsOverride {
  /** Replaces the table's context window. */
  readonly contextWindow?: number | undefined;
  /** Replaces the table's maximum output. */
  readonly maxOutputTokens?: number | undefined;
}

/** Lower-cases a model id and drops a vendor path (`meta-llama/Llama-3.1-8B` -> `llama-3.1-8b`). */
function normaliseModelId(modelId: string): string {
  const lower = modelId.trim().toLowerCase();
  const slash = lower.lastIndexOf('/');
  return slash === -1 ? lower : lower.slice(slash + 1);
}

function checkLimit(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new ProvidersError(
      'invalid-config',
      `${field} must be a positive whole number, got ${describe(value)}`,
      {
        field,
      },
    );
  }
  return value;
}

/** Short, safe description of a bad value for an error message (never the whole value). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * Looks up a model's limits in {@link MODEL_LIMITS} (longest prefix of the normalised id wins,
 * {@link DEFAULT_MODEL_LIMITS} otherwise) and applies an override; throws a `ProvidersError`
 * (`invalid-config`) on a non-positive or fractional override.
 */
export function modelLimits(modelId: string, override: ModelLimitsOverride = {}): ModelLimits {
  const contextOverride = checkLimit(override.contextWindow, 'contextWindow');
  const outputOverride = checkLimit(override.maxOutputTokens, 'maxOutputTokens');
  const id = normaliseModelId(modelId);
  let best: ModelLimitsEntry | undefined;
  for (const entry of MODEL_LIMITS) {
    if (id.startsWith(entry.prefix) && (best === undefined || entry.prefix.length > best.prefix.length)) {
      best = entry;
    }
  }
  const base = best ?? DEFAULT_MODEL_LIMITS;
  const contextWindow = contextOverride ?? base.contextWindow;
  if (outputOverride !== undefined && outputOverride > contextWindow) {
    throw new ProvidersError(
      'invalid-config',
      `maxOutputTokens (${outputOverride}) exceeds contextWindow (${contextWindow})`,
      { field: 'maxOutputTokens' },
    );
  }
  // A smaller context override shrinks the table's output cap with it.
  const maxOutputTokens = outputOverride ?? Math.min(base.maxOutputTokens, contextWindow);
  return { contextWindow, maxOutputTokens };
}
