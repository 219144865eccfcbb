import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createModel,
  DEFAULT_MODEL_LIMITS,
  DEFAULT_MODELS,
  ENV_VARS,
  isProvidersError,
  MODEL_LIMITS,
  type ModelConfig,
  modelFromEnv,
  modelLimits,
  PROVIDER_NAMES,
  type ProvidersError,
} from '../src/index.js';

function errorOf(run: () => unknown): ProvidersError {
  try {
    run();
  } catch (error) {
    if (isProvidersError(error)) return error;
    throw new Error(`expected a ProvidersError, got ${String(error)}`);
  }
  throw new Error('expected a ProvidersError, nothing was thrown');
}

describe('modelLimits', () => {
  // Table lookups and overrides are data: vectors/model-limits.json, run by vectors.test.ts.
  it.each([0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '4096'])('rejects the override %s', (bad) => {
    expect(errorOf(() => modelLimits('x', { contextWindow: bad as number })).code).toBe('invalid-config');
  });

  it('has sane, unique table rows and the exported default for unknown ids', () => {
    expect(modelLimits('zz-not-a-model')).toEqual(DEFAULT_MODEL_LIMITS);
    const prefixes = MODEL_LIMITS.map((row) => row.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const row of MODEL_LIMITS) {
      expect(row.prefix).toBe(row.prefix.toLowerCase());
      expect(row.maxOutputTokens).toBeLessThanOrEqual(row.contextWindow);
    }
  });

  it('never throws for any model id string and always returns positive whole numbers (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (id) => {
        const limits = modelLimits(id);
        return (
          Number.isSafeInteger(limits.contextWindow) &&
          limits.contextWindow > 0 &&
          limits.maxOutputTokens > 0 &&
          limits.maxOutputTokens <= limits.contextWindow
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('createModel', () => {
  it('builds each HTTP provider with its metadata and limits', () => {
    const compat = createModel({
      provider: 'openai-compatible',
      baseURL: 'http://127.0.0.1:1/v1',
      model: 'qwen3:8b',
    });
    expect(compat).toMatchObject({
      provider: 'openai-compatible',
      modelId: 'qwen3:8b',
      contextWindow: 40_960,
    });
    expect(compat.model.specificationVersion).toBe('v3');
    const openai = createModel({ provider: 'openai', apiKey: 'k' });
    expect(openai).toMatchObject({ provider: 'openai', modelId: DEFAULT_MODELS.openai });
    expect(openai.model.provider).toBe('openai.responses');
    expect(createModel({ provider: 'openai', apiKey: 'k', api: 'chat' }).model.provider).toBe('openai.chat');
    const anthropic = createModel({ provider: 'anthropic', apiKey: 'k', maxOutputTokens: 1_000 });
    expect(anthropic).toMatchObject({ modelId: DEFAULT_MODELS.anthropic, maxOutputTokens: 1_000 });
    expect(anthropic.model.provider).toBe('anthropic.messages');
  });

  it('builds the scripted demo model without any network', () => {
    const demo = createModel({ provider: 'scripted' });
    expect(demo).toMatchObject({ provider: 'scripted', modelId: 'codeagent-demo', contextWindow: 200_000 });
    const custom = createModel({
      provider: 'scripted',
      script: ['hi'],
      modelId: 'mine',
      contextWindow: 1_000,
    });
    expect(custom).toMatchObject({ modelId: 'mine', contextWindow: 1_000, maxOutputTokens: 1_000 });
  });

  const incomplete: Array<[string, unknown, string]> = [
    ['compatible without baseURL', { provider: 'openai-compatible', model: 'm' }, 'CODEAGENT_BASE_URL'],
    ['compatible without model', { provider: 'openai-compatible', baseURL: 'http://x' }, 'CODEAGENT_MODEL'],
    [
      'compatible with a blank model',
      { provider: 'openai-compatible', baseURL: 'http://x', model: '  ' },
      'CODEAGENT_MODEL',
    ],
    ['openai without key', { provider: 'openai' }, 'OPENAI_API_KEY'],
    ['anthropic without key', { provider: 'anthropic', model: 'claude-3-5-haiku' }, 'ANTHROPIC_API_KEY'],
  ];
  it.each(incomplete)('names the missing variable: %s', (_name, config, variable) => {
    const error = errorOf(() => createModel(config as ModelConfig));
    expect(error.code).toBe('missing-config');
    expect(error.message).toContain(variable);
    expect(['baseURL', 'model', 'apiKey']).toContain(error.field);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['a non-object', 'openai', 'invalid-config'],
    ['an unknown provider', { provider: 'gemini' }, 'unknown-provider'],
    [
      'a non-URL baseURL',
      { provider: 'openai-compatible', baseURL: 'not a url', model: 'm' },
      'invalid-config',
    ],
    [
      'a javascript: baseURL',
      { provider: 'openai-compatible', baseURL: 'javascript:alert(1)', model: 'm' },
      'invalid-config',
    ],
    ['a numeric key', { provider: 'openai', apiKey: 42 }, 'invalid-config'],
    ['a bad api', { provider: 'openai', apiKey: 'k', api: 'assistants' }, 'invalid-config'],
    ['non-string headers', { provider: 'anthropic', apiKey: 'k', headers: { a: 1 } }, 'invalid-config'],
    ['a non-function fetch', { provider: 'anthropic', apiKey: 'k', fetch: 'x' }, 'invalid-config'],
    ['a negative window', { provider: 'anthropic', apiKey: 'k', contextWindow: -1 }, 'invalid-config'],
    ['a broken script', { provider: 'scripted', script: [1] }, 'invalid-script'],
  ];
  it.each(invalid)('rejects %s with a clear code', (_name, config, code) => {
    expect(errorOf(() => createModel(config as ModelConfig)).code).toBe(code);
  });

  it('never leaks anything but a ProvidersError for arbitrary input (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            provider: fc.constantFrom(...PROVIDER_NAMES, 'x'),
            baseURL: fc.oneof(fc.webUrl(), fc.string()),
            model: fc.string(),
            apiKey: fc.oneof(fc.string(), fc.integer()),
            contextWindow: fc.oneof(fc.integer(), fc.double()),
          }),
        ),
        (config) => {
          try {
            const resolved = createModel(config as ModelConfig);
            return resolved.model.specificationVersion === 'v3';
          } catch (error) {
            return isProvidersError(error);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('modelFromEnv', () => {
  it('returns null with nothing configured, or the demo model when asked', () => {
    expect(modelFromEnv({ env: {} })).toBeNull();
    expect(modelFromEnv({ env: { UNRELATED: '1', OPENAI_API_KEY: '  ' } })).toBeNull();
    expect(modelFromEnv({ env: {}, fallback: 'demo' })?.modelId).toBe('codeagent-demo');
  });

  it('picks the chat API for OpenAI with CODEAGENT_OPENAI_API=chat', () => {
    expect(modelFromEnv({ env: { OPENAI_API_KEY: 'k', CODEAGENT_OPENAI_API: 'chat' } })?.model.provider).toBe(
      'openai.chat',
    );
  });

  it('never echoes a key in an error message', () => {
    const secret = 'sk-very-secret-value-123';
    const error = errorOf(() =>
      modelFromEnv({
        env: { OPENAI_API_KEY: secret, ANTHROPIC_API_KEY: secret, CODEAGENT_CONTEXT_WINDOW: 'x' },
      }),
    );
    expect(error.message).not.toContain(secret);
  });

  it('documents every variable it reads', () => {
    expect(Object.keys(ENV_VARS).sort()).toEqual([
      'ANTHROPIC_API_KEY',
      'CODEAGENT_API_KEY',
      'CODEAGENT_BASE_URL',
      'CODEAGENT_CONTEXT_WINDOW',
      'CODEAGENT_MAX_OUTPUT_TOKENS',
      'CODEAGENT_MODEL',
      'CODEAGENT_OPENAI_API',
      'CODEAGENT_PROVIDER',
      'OPENAI_API_KEY',
    ]);
  });

  it('answers a ProvidersError or a model for any environment (property)', () => {
    const names = Object.keys(ENV_VARS);
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...names),
          fc.oneof(
            fc.string(),
            fc.constantFrom('openai', 'anthropic', 'demo', 'http://127.0.0.1:9/v1', '4096'),
          ),
        ),
        (env) => {
          try {
            const resolved = modelFromEnv({ env });
            return resolved === null || resolved.contextWindow > 0;
          } catch (error) {
            return isProvidersError(error);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
