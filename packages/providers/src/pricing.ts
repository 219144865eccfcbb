/** Price of a model in US dollars per million tokens. */
export interface ModelPricing {
  /** Dollars per million input (prompt) tokens. */
  readonly inputPerMillion: number;
  /** Dollars per million output tokens. */
  readonly outputPerMillion: number;
}

/** One row of the pricing table: model ids starting with `prefix` (normalised like the limits table) cost this. */
export interface ModelPricingEntry extends ModelPricing {
  /** Lower-case model-id prefix; the longest matching prefix wins. */
  readonly prefix: string;
}

/**
 * List prices of the known models of each provider (USD per million tokens, standard tier, no cache discounts), from
 * the vendors' pricing pages as of late 2025. Local and unknown models have no row: their cost is unknown, not zero.
 */
export const MODEL_PRICING: readonly ModelPricingEntry[] = Object.freeze(
  (
    [
      // Anthropic
      ['claude-opus-4-5', 5, 25],
      ['claude-opus-4', 15, 75],
      ['claude-sonnet-4', 3, 15],
      ['claude-haiku-4', 1, 5],
      ['claude-3-7-sonnet', 3, 15],
      ['claude-3-5-sonnet', 3, 15],
      ['claude-3-5-haiku', 0.8, 4],
      ['claude-3-opus', 15, 75],
      ['claude-3-haiku', 0.25, 1.25],
      // OpenAI
      ['gpt-5', 1.25, 10],
      ['gpt-5-mini', 0.25, 2],
      ['gpt-5-nano', 0.05, 0.4],
      ['gpt-4.1', 2, 8],
      ['gpt-4.1-mini', 0.4, 1.6],
      ['gpt-4.1-nano', 0.1, 0.4],
      ['gpt-4o', 2.5, 10],
      ['gpt-4o-mini', 0.15, 0.6],
      ['gpt-4-turbo', 10, 30],
      ['gpt-3.5-turbo', 0.5, 1.5],
      ['o1', 15, 60],
      ['o3', 2, 8],
      ['o3-mini', 1.1, 4.4],
      ['o4-mini', 1.1, 4.4],
    ] as const
  ).map(([prefix, inputPerMillion, outputPerMillion]) =>
    Object.freeze({ prefix, inputPerMillion, outputPerMillion }),
  ),
);

/**
 * The list price of a model id from {@link MODEL_PRICING} (lower-cased, vendor path dropped, longest prefix wins),
 * or `null` when the model is not in the table (a local model, an unknown id): a host then shows no cost.
 */
export function modelPricing(modelId: string): ModelPricing | null {
  if (typeof modelId !== 'string') return null;
  const lower = modelId.trim().toLowerCase();
  const id = lower.slice(lower.lastIndexOf('/') + 1);
  let best: ModelPricingEntry | undefined;
  for (const entry of MODEL_PRICING) {
    if (id.startsWith(entry.prefix) && (best === undefined || entry.prefix.length > best.prefix.length))
      best = entry;
  }
  return best === undefined
    ? null
    : { inputPerMillion: best.inputPerMillion, outputPerMillion: best.outputPerMillion };
}
