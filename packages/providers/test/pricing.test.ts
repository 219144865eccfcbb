import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS, MODEL_PRICING, modelPricing } from '../src/index.js';

describe('modelPricing', () => {
  it('prices the known models of each provider, longest prefix first', () => {
    expect(modelPricing('claude-sonnet-4-5-20250929')).toEqual({ inputPerMillion: 3, outputPerMillion: 15 });
    expect(modelPricing('claude-opus-4-5')).toEqual({ inputPerMillion: 5, outputPerMillion: 25 });
    expect(modelPricing('claude-opus-4-1')).toEqual({ inputPerMillion: 15, outputPerMillion: 75 });
    expect(modelPricing('gpt-4.1-mini-2025-04-14')).toEqual({ inputPerMillion: 0.4, outputPerMillion: 1.6 });
    expect(modelPricing('openai/GPT-4o')).toEqual({ inputPerMillion: 2.5, outputPerMillion: 10 });
    expect(modelPricing(DEFAULT_MODELS.openai)).not.toBeNull();
    expect(modelPricing(DEFAULT_MODELS.anthropic)).not.toBeNull();
  });

  it('has no price for local or unknown models (unknown, not free)', () => {
    for (const id of ['qwen2.5-coder:7b', 'llama3.1', 'test-model', '', 'gpt'])
      expect(modelPricing(id)).toBeNull();
    expect(modelPricing(42 as never)).toBeNull();
  });

  it('every row is positive and every prefix unique; any id gives a row of the table or null (property)', () => {
    expect(new Set(MODEL_PRICING.map((r) => r.prefix)).size).toBe(MODEL_PRICING.length);
    for (const row of MODEL_PRICING)
      expect(row.inputPerMillion > 0 && row.outputPerMillion >= row.inputPerMillion).toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (id) => {
        const p = modelPricing(id);
        if (p !== null) {
          expect(
            MODEL_PRICING.some(
              (r) => r.inputPerMillion === p.inputPerMillion && r.outputPerMillion === p.outputPerMillion,
            ),
          ).toBe(true);
        }
      }),
    );
  });
});
