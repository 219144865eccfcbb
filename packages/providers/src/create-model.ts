import { assertNever, isRecord } from '@codeagent/artifact-schema/internal';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { demoModel } from './demo.js';
import { ProvidersError } from './errors.js';
import { describe, type ModelLimitsOverride, modelLimits } from './limits.js';
import { type Script, type ScriptedModelOptions, scriptedModel } from './scripted.js';
import { withStallTimeout } from './stall.js';

/** The providers {@link createModel} knows. */
export type ProviderName = 'openai-compatible' | 'openai' | 'anthropic' | 'scripted';

/** The provider names, in documentation order. */
export const PROVIDER_NAMES: readonly ProviderName[] = Object.freeze([
  'openai-compatible',
  'openai',
  'anthropic',
  'scripted',
]);

/** A `fetch` implementation the HTTP providers use instead of the global one (proxies, tests). */
export type FetchFunction = typeof globalThis.fetch;

/** Settings shared by the HTTP providers. */
export interface HttpModelConfigBase extends ModelLimitsOverride {
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Custom fetch. */
  readonly fetch?: FetchFunction | undefined;
  /**
   * Abort a request that receives no bytes for this many milliseconds (before the headers or between chunks),
   * with a `ProvidersError` `stalled`; unset: wait as long as the server does.
   */
  readonly stallTimeoutMs?: number | undefined;
}

/** Any server that speaks the OpenAI chat-completions protocol: Ollama, vLLM, LM Studio, llama.cpp, OpenRouter... */
export interface OpenAICompatibleModelConfig extends HttpModelConfigBase {
  /** Selects this provider. */
  readonly provider: 'openai-compatible';
  /** Base URL ending before `/chat/completions`, e.g. `http://127.0.0.1:11434/v1` (required). */
  readonly baseURL: string;
  /** Model id as the server names it (required). */
  readonly model: string;
  /** Bearer key; optional because local servers usually need none. */
  readonly apiKey?: string | undefined;
  /** Provider label in AI SDK metadata (default `openai-compatible`). */
  readonly name?: string | undefined;
}

/** OpenAI through `@ai-sdk/openai`. */
export interface OpenAIModelConfig extends HttpModelConfigBase {
  /** Selects this provider. */
  readonly provider: 'openai';
  /** API key (required). */
  readonly apiKey: string;
  /** Model id (default {@link DEFAULT_MODELS}`.openai`). */
  readonly model?: string | undefined;
  /** Base URL (default the provider's own). */
  readonly baseURL?: string | undefined;
  /** Wire API: `responses` (the provider's default) or `chat` (chat completions). */
  readonly api?: 'responses' | 'chat' | undefined;
}

/** Anthropic through `@ai-sdk/anthropic`. */
export interface AnthropicModelConfig extends HttpModelConfigBase {
  /** Selects this provider. */
  readonly provider: 'anthropic';
  /** API key (required). */
  readonly apiKey: string;
  /** Model id (default {@link DEFAULT_MODELS}`.anthropic`). */
  readonly model?: string | undefined;
  /** Base URL ending before `/messages` (default the provider's own). */
  readonly baseURL?: string | undefined;
}

/** The package's scripted model: the demo script by default, or a script of your own. No network. */
export interface ScriptedModelConfig extends ModelLimitsOverride, ScriptedModelOptions {
  /** Selects this provider. */
  readonly provider: 'scripted';
  /** The script to replay (default: the built-in demo script). */
  readonly script?: Script | undefined;
}

/** Everything {@link createModel} accepts, one variant per provider, tagged by `provider`. */
export type ModelConfig =
  | OpenAICompatibleModelConfig
  | OpenAIModelConfig
  | AnthropicModelConfig
  | ScriptedModelConfig;

/** A ready model with what a host needs to budget its context. */
export interface ResolvedModel {
  /** The AI SDK model to hand to `streamText` or `createClient`. */
  readonly model: LanguageModelV3;
  /** Which provider built it. */
  readonly provider: ProviderName;
  /** The model id. */
  readonly modelId: string;
  /** Context window in tokens (table value or override). */
  readonly contextWindow: number;
  /** Maximum output tokens per answer (table value or override). */
  readonly maxOutputTokens: number;
}

/** Model ids used when OpenAI or Anthropic is configured without a model. */
export const DEFAULT_MODELS: Readonly<{ openai: string; anthropic: string }> = Object.freeze({
  openai: 'gpt-4.1',
  anthropic: 'claude-sonnet-4-5',
});

/** A config object lacks a field: the message names the field and the variable that would set it. */
function missing(field: string, env: string, provider: string, hint: string): never {
  throw new ProvidersError(
    'missing-config',
    `the ${provider} provider needs ${field} (environment: ${env}); ${hint}`,
    { field },
  );
}

/** The environment lacks a variable: the message and `field` name the variable. */
function missingEnv(variable: string, provider: string, hint: string): never {
  throw new ProvidersError(
    'missing-config',
    `${variable} is not set: the ${provider} provider needs it; ${hint}`,
    {
      field: variable,
    },
  );
}

function optionalString(config: Record<string, unknown>, field: string): string | undefined {
  const value = config[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new ProvidersError('invalid-config', `${field} must be a string, got ${describe(value)}`, {
      field,
    });
  }
  return value.trim() === '' ? undefined : value.trim();
}

function checkUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProvidersError('invalid-config', `${field} is not a URL: ${describe(value)}`, { field });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProvidersError('invalid-config', `${field} must be an http(s) URL, got ${describe(value)}`, {
      field,
    });
  }
  return value.replace(/\/+$/u, '');
}

function httpSettings(config: Record<string, unknown>) {
  const headers = config.headers;
  if (headers !== undefined) {
    if (!isRecord(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
      throw new ProvidersError('invalid-config', 'headers must be an object of strings', {
        field: 'headers',
      });
    }
  }
  const fetch = config.fetch;
  if (fetch !== undefined && typeof fetch !== 'function') {
    throw new ProvidersError('invalid-config', 'fetch must be a function', { field: 'fetch' });
  }
  const stall = config.stallTimeoutMs;
  if (stall !== undefined && (typeof stall !== 'number' || !Number.isFinite(stall) || stall <= 0)) {
    throw new ProvidersError(
      'invalid-config',
      `stallTimeoutMs must be a positive number, got ${describe(stall)}`,
      {
        field: 'stallTimeoutMs',
      },
    );
  }
  return {
    ...(headers === undefined ? {} : { headers: { ...(headers as Record<string, string>) } }),
    ...(fetch === undefined ? {} : { fetch: fetch as FetchFunction }),
  };
}

function resolved(
  provider: ProviderName,
  model: LanguageModelV3,
  modelId: string,
  config: ModelLimitsOverride & { readonly stallTimeoutMs?: number | undefined },
) {
  const limits = modelLimits(modelId, {
    contextWindow: config.contextWindow,
    maxOutputTokens: config.maxOutputTokens,
  });
  const stall = config.stallTimeoutMs;
  const guarded = stall === undefined ? model : withStallTimeout(model, stall);
  return { model: guarded, provider, modelId, ...limits } satisfies ResolvedModel;
}

/**
 * Builds an AI SDK model from a config object, checked at run time too (configs often come from JSON);
 * throws `ProvidersError` naming the missing or bad field and its environment variable.
 */
export function createModel(config: ModelConfig): ResolvedModel {
  if (!isRecord(config)) {
    throw new ProvidersError('invalid-config', `model config must be an object, got ${describe(config)}`);
  }
  const provider: unknown = config.provider;
  const raw: Record<string, unknown> = config;
  switch (provider) {
    case 'openai-compatible': {
      const baseURL = optionalString(raw, 'baseURL');
      if (baseURL === undefined) {
        missing('baseURL', 'CODEAGENT_BASE_URL', provider, 'e.g. http://127.0.0.1:11434/v1 for Ollama');
      }
      const modelId = optionalString(raw, 'model');
      if (modelId === undefined)
        missing('model', 'CODEAGENT_MODEL', provider, 'name the model the server serves');
      const apiKey = optionalString(raw, 'apiKey');
      const factory = createOpenAICompatible({
        name: optionalString(raw, 'name') ?? 'openai-compatible',
        baseURL: checkUrl(baseURL, 'baseURL'),
        includeUsage: true,
        ...(apiKey === undefined ? {} : { apiKey }),
        ...httpSettings(raw),
      });
      return resolved(provider, factory.chatModel(modelId), modelId, config);
    }
    case 'openai': {
      const apiKey = optionalString(raw, 'apiKey');
      if (apiKey === undefined)
        missing('apiKey', 'OPENAI_API_KEY or CODEAGENT_API_KEY', provider, 'pass the API key');
      const baseURL = optionalString(raw, 'baseURL');
      const api = raw.api ?? 'responses';
      if (api !== 'responses' && api !== 'chat') {
        throw new ProvidersError(
          'invalid-config',
          `api must be "responses" or "chat", got ${describe(api)}`,
          {
            field: 'api',
          },
        );
      }
      const modelId = optionalString(raw, 'model') ?? DEFAULT_MODELS.openai;
      const factory = createOpenAI({
        apiKey,
        ...(baseURL === undefined ? {} : { baseURL: checkUrl(baseURL, 'baseURL') }),
        ...httpSettings(raw),
      });
      const model = api === 'chat' ? factory.chat(modelId) : factory.responses(modelId);
      return resolved(provider, model, modelId, config);
    }
    case 'anthropic': {
      const apiKey = optionalString(raw, 'apiKey');
      if (apiKey === undefined)
        missing('apiKey', 'ANTHROPIC_API_KEY or CODEAGENT_API_KEY', provider, 'pass the API key');
      const baseURL = optionalString(raw, 'baseURL');
      const modelId = optionalString(raw, 'model') ?? DEFAULT_MODELS.anthropic;
      const factory = createAnthropic({
        apiKey,
        ...(baseURL === undefined ? {} : { baseURL: checkUrl(baseURL, 'baseURL') }),
        ...httpSettings(raw),
      });
      return resolved(provider, factory.messages(modelId), modelId, config);
    }
    case 'scripted': {
      const scripted = config as ScriptedModelConfig;
      const { script, contextWindow: _c, maxOutputTokens: _m, provider: _p, ...options } = scripted;
      const model = script === undefined ? demoModel(options) : scriptedModel(script, options);
      return resolved(provider, model, model.modelId, config);
    }
    default:
      throw new ProvidersError(
        'unknown-provider',
        `unknown provider ${describe(provider)}; expected one of ${PROVIDER_NAMES.join(', ')}`,
        { field: 'provider' },
      );
  }
}

/** An environment: variable name to value (`process.env` has this shape). */
export type EnvLike = Readonly<Record<string, string | undefined>>;

/** Options of {@link modelFromEnv}. */
export interface ModelFromEnvOptions {
  /** Variables to read (default `process.env` when it exists, else none). */
  readonly env?: EnvLike | undefined;
  /** What to return when nothing is configured: `null` (default) or the scripted `demo` model. */
  readonly fallback?: 'none' | 'demo' | undefined;
  /** Custom fetch for the HTTP providers. */
  readonly fetch?: FetchFunction | undefined;
}

/** Names of the environment variables {@link modelFromEnv} reads. */
export type EnvVarName =
  | 'CODEAGENT_PROVIDER'
  | 'CODEAGENT_MODEL'
  | 'CODEAGENT_BASE_URL'
  | 'CODEAGENT_API_KEY'
  | 'OPENAI_API_KEY'
  | 'ANTHROPIC_API_KEY'
  | 'CODEAGENT_OPENAI_API'
  | 'CODEAGENT_CONTEXT_WINDOW'
  | 'CODEAGENT_MAX_OUTPUT_TOKENS';

/** The environment variables {@link modelFromEnv} reads, with what each one does. */
export const ENV_VARS: Readonly<Record<EnvVarName, string>> = Object.freeze({
  CODEAGENT_PROVIDER: `one of ${PROVIDER_NAMES.join(', ')} (or demo); inferred when unset`,
  CODEAGENT_MODEL: 'model id; required for openai-compatible',
  CODEAGENT_BASE_URL: 'server base URL; required for openai-compatible, optional override for the others',
  CODEAGENT_API_KEY: 'key for openai-compatible; fallback key for openai and anthropic',
  OPENAI_API_KEY: 'key for openai',
  ANTHROPIC_API_KEY: 'key for anthropic',
  CODEAGENT_OPENAI_API: 'responses (default) or chat, for provider openai',
  CODEAGENT_CONTEXT_WINDOW: 'override of the context window, in tokens',
  CODEAGENT_MAX_OUTPUT_TOKENS: 'override of the maximum output, in tokens',
});

function readEnv(env: EnvLike, name: EnvVarName): string | undefined {
  const value = env[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function envInteger(env: EnvLike, name: EnvVarName): number | undefined {
  const value = readEnv(env, name);
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/u.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) <= 0) {
    throw new ProvidersError(
      'invalid-config',
      `${name} must be a positive whole number, got ${describe(value)}`,
      {
        field: name,
      },
    );
  }
  return Number(value);
}

function defaultEnv(): EnvLike {
  const proc = (globalThis as { process?: { env?: EnvLike } }).process;
  return proc?.env ?? {};
}

/**
 * Reads a model config from environment variables (see {@link ENV_VARS}) and builds it. The provider is
 * `CODEAGENT_PROVIDER`, else `openai-compatible` when `CODEAGENT_BASE_URL` is set, else the one of
 * `ANTHROPIC_API_KEY` / `OPENAI_API_KEY` that is set. With nothing configured it returns `null`, or the
 * demo model when `fallback: 'demo'`; an incomplete config throws `ProvidersError` naming the variable.
 */
export function modelFromEnv(options: ModelFromEnvOptions = {}): ResolvedModel | null {
  const env = options.env ?? defaultEnv();
  const fallback = options.fallback ?? 'none';
  if (fallback !== 'none' && fallback !== 'demo') {
    throw new ProvidersError(
      'invalid-config',
      `fallback must be "none" or "demo", got ${describe(fallback)}`,
      {
        field: 'fallback',
      },
    );
  }
  const limits = {
    contextWindow: envInteger(env, 'CODEAGENT_CONTEXT_WINDOW'),
    maxOutputTokens: envInteger(env, 'CODEAGENT_MAX_OUTPUT_TOKENS'),
  };
  const fetch = options.fetch === undefined ? {} : { fetch: options.fetch };
  const explicit = readEnv(env, 'CODEAGENT_PROVIDER')?.toLowerCase();
  const baseURL = readEnv(env, 'CODEAGENT_BASE_URL');
  const model = readEnv(env, 'CODEAGENT_MODEL');
  const genericKey = readEnv(env, 'CODEAGENT_API_KEY');
  const openaiKey = readEnv(env, 'OPENAI_API_KEY');
  const anthropicKey = readEnv(env, 'ANTHROPIC_API_KEY');

  let provider: ProviderName | undefined;
  if (explicit === 'demo') provider = 'scripted';
  else if (explicit !== undefined) {
    if (!(PROVIDER_NAMES as readonly string[]).includes(explicit)) {
      throw new ProvidersError(
        'unknown-provider',
        `CODEAGENT_PROVIDER=${describe(explicit)} is not one of ${[...PROVIDER_NAMES, 'demo'].join(', ')}`,
        { field: 'CODEAGENT_PROVIDER' },
      );
    }
    provider = explicit as ProviderName;
  } else if (baseURL !== undefined) provider = 'openai-compatible';
  else if (anthropicKey !== undefined && openaiKey !== undefined) {
    throw new ProvidersError(
      'ambiguous-provider',
      'both ANTHROPIC_API_KEY and OPENAI_API_KEY are set: choose one with CODEAGENT_PROVIDER=anthropic or openai',
      { field: 'CODEAGENT_PROVIDER' },
    );
  } else if (anthropicKey !== undefined) provider = 'anthropic';
  else if (openaiKey !== undefined) provider = 'openai';
  else if (model !== undefined || genericKey !== undefined) {
    throw new ProvidersError(
      'missing-config',
      'CODEAGENT_MODEL or CODEAGENT_API_KEY is set but no provider is: set CODEAGENT_PROVIDER (or CODEAGENT_BASE_URL)',
      { field: 'CODEAGENT_PROVIDER' },
    );
  }

  switch (provider) {
    case undefined:
      return fallback === 'demo' ? createModel({ provider: 'scripted', ...limits }) : null;
    case 'scripted':
      return createModel({ provider: 'scripted', ...limits });
    case 'openai-compatible':
      if (baseURL === undefined)
        missingEnv('CODEAGENT_BASE_URL', provider, 'e.g. http://127.0.0.1:11434/v1 for Ollama');
      if (model === undefined) missingEnv('CODEAGENT_MODEL', provider, 'name the model the server serves');
      return createModel({ provider, baseURL, model, apiKey: genericKey, ...limits, ...fetch });
    case 'openai': {
      const apiKey = openaiKey ?? genericKey;
      if (apiKey === undefined) missingEnv('OPENAI_API_KEY', provider, 'or set CODEAGENT_API_KEY');
      const api = readEnv(env, 'CODEAGENT_OPENAI_API')?.toLowerCase();
      if (api !== undefined && api !== 'responses' && api !== 'chat') {
        throw new ProvidersError(
          'invalid-config',
          `CODEAGENT_OPENAI_API must be responses or chat, got ${describe(api)}`,
          {
            field: 'CODEAGENT_OPENAI_API',
          },
        );
      }
      return createModel({ provider, apiKey, model, baseURL, api, ...limits, ...fetch });
    }
    case 'anthropic': {
      const apiKey = anthropicKey ?? genericKey;
      if (apiKey === undefined) missingEnv('ANTHROPIC_API_KEY', provider, 'or set CODEAGENT_API_KEY');
      return createModel({ provider, apiKey, model, baseURL, ...limits, ...fetch });
    }
    default:
      return assertNever(provider, 'provider');
  }
}
