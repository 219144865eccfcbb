import { readFile } from 'node:fs/promises';
import {
  createModel,
  DEFAULT_MODEL_LIMITS,
  fetchServerModelInfo,
  type ModelConfig,
  type ModelPricing,
  modelFromEnv,
  modelPricing,
  type ResolvedModel,
  type Script,
  withStallTimeout,
} from '@codeagent/providers';
import type { CliOptions } from './args.js';
import type { CliConfig, ConfigModel } from './config.js';

/** Where the context window figure came from (shown in the banner, so a guess is never taken for a fact). */
export type WindowSource = 'flag' | 'config' | 'env' | 'server' | 'table' | 'default';

/** What a session remembers about its model (never a key). */
export interface ModelSpec {
  provider: string;
  model: string;
  baseURL?: string | undefined;
  apiKeyEnv?: string | undefined;
}

/** The model a CLI run uses, and how it was chosen (shown to the user). */
export interface ChosenModel {
  resolved: ResolvedModel;
  /** A note for the banner, e.g. that the scripted demo model is in use. */
  note: string | null;
  /** The built-in demo tour: it only ever runs in a temporary copy of the demo workspace. */
  demo: boolean;
  /** The context window the session budgets with. */
  contextWindow: number;
  /** Output cap per answer. */
  maxOutputTokens: number;
  /** Where {@link contextWindow} came from. */
  windowSource: WindowSource;
  /** List price, or null when unknown (no cost is shown). */
  pricing: ModelPricing | null;
  /** Provider, model and base URL, for `/model` and saved sessions. */
  spec: ModelSpec;
}

/** No model is configured: the CLI says how to configure one and runs nothing (exit status 2). */
export class NoModelError extends Error {
  override readonly name = 'NoModelError';
  constructor(configPath: string) {
    super(
      [
        'no model configured. Point codeagent at a model with flags, the environment or a config file:',
        '  codeagent --provider openai-compatible --base-url http://127.0.0.1:11434/v1 --model qwen2.5-coder',
        '  CODEAGENT_BASE_URL=... CODEAGENT_MODEL=...   (or OPENAI_API_KEY / ANTHROPIC_API_KEY)',
        `  ${configPath}  {"provider": "openai-compatible", "baseURL": "...", "model": "..."}`,
        'To see the scripted tour instead (a temporary copy of a sample workspace, no network): codeagent demo',
      ].join('\n'),
    );
  }
}

/** What {@link chooseModel} reads besides the flags. */
export interface ModelContext {
  env: NodeJS.ProcessEnv;
  config: CliConfig;
  configPath: string;
  /** Provider and model a resumed session used (flags, env and config still win). */
  remembered?: ModelSpec | undefined;
}

/** The default stall timeout, seconds. */
export const DEFAULT_STALL_TIMEOUT_SECONDS = 120;

function demo(note: string): ChosenModel {
  // No script: the providers package's built-in demo tour, with the limits it reports.
  const resolved = createModel({ provider: 'scripted' });
  return {
    resolved,
    note,
    demo: true,
    contextWindow: resolved.contextWindow,
    maxOutputTokens: resolved.maxOutputTokens,
    windowSource: 'table',
    pricing: null,
    spec: { provider: 'scripted', model: resolved.modelId },
  };
}

function apiKeyFor(provider: string, env: NodeJS.ProcessEnv, keyEnv?: string): string | undefined {
  if (keyEnv !== undefined) return env[keyEnv] || undefined;
  const key =
    env.CODEAGENT_API_KEY ??
    (provider === 'openai'
      ? env.OPENAI_API_KEY
      : provider === 'anthropic'
        ? env.ANTHROPIC_API_KEY
        : undefined);
  return key || undefined;
}

/** Builds a model from a spec; the key is read from its variable (or the provider's usual one). */
export function modelFromSpec(
  spec: ConfigModel & { provider: string },
  env: NodeJS.ProcessEnv,
): ResolvedModel {
  const apiKey = apiKeyFor(spec.provider, env, spec.apiKeyEnv);
  const config = {
    provider: spec.provider,
    ...(spec.model ? { model: spec.model } : {}),
    ...(spec.baseURL ? { baseURL: spec.baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(spec.contextWindow ? { contextWindow: spec.contextWindow } : {}),
    ...(spec.maxOutputTokens ? { maxOutputTokens: spec.maxOutputTokens } : {}),
  } as ModelConfig;
  return createModel(config);
}

/** Window, output cap, stall guard and price around a resolved HTTP model. */
async function finish(
  resolved: ResolvedModel,
  spec: ModelSpec,
  override: { window: number | undefined; source: WindowSource },
  options: { stallSeconds: number; pricing?: ModelPricing | undefined; env: NodeJS.ProcessEnv },
): Promise<ChosenModel> {
  let contextWindow = override.window ?? resolved.contextWindow;
  let windowSource: WindowSource = override.window !== undefined ? override.source : 'table';
  if (override.window === undefined && resolved.provider === 'openai-compatible' && spec.baseURL) {
    const apiKey = apiKeyFor(spec.provider, options.env, spec.apiKeyEnv);
    const info = await fetchServerModelInfo(spec.baseURL, resolved.modelId, apiKey ? { apiKey } : {});
    if (info.contextWindow !== null) {
      contextWindow = info.contextWindow;
      windowSource = 'server';
    }
  }
  if (windowSource === 'table' && contextWindow === DEFAULT_MODEL_LIMITS.contextWindow)
    windowSource = 'default';
  // A window smaller than the table's output cap: keep room for the prompt.
  const maxOutputTokens =
    resolved.maxOutputTokens > contextWindow / 2
      ? Math.max(256, Math.floor(contextWindow / 4))
      : resolved.maxOutputTokens;
  const model =
    options.stallSeconds > 0 ? withStallTimeout(resolved.model, options.stallSeconds * 1000) : resolved.model;
  return {
    resolved: { ...resolved, model },
    note: null,
    demo: false,
    contextWindow,
    maxOutputTokens,
    windowSource,
    pricing: options.pricing ?? modelPricing(resolved.modelId),
    spec: { ...spec, model: resolved.modelId },
  };
}

function envWindow(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.CODEAGENT_CONTEXT_WINDOW?.trim();
  return raw && /^\d+$/u.test(raw) ? Number(raw) : undefined;
}

/**
 * Chooses the model: flags, then the environment, then the config file, then the model a resumed session used.
 * With nothing configured it throws {@link NoModelError}: the scripted demo never runs on a user's real files (only
 * `codeagent demo` and explicit demo providers, on a temporary copy).
 */
export async function chooseModel(options: CliOptions, ctx: ModelContext): Promise<ChosenModel> {
  const { env, config } = ctx;
  if (options.command === 'demo') return demo('scripted demo model (no network, no keys)');
  if (options.provider === 'scripted' || options.script !== null) {
    if (options.script === null) return demo('scripted demo model on a temporary copy of the demo workspace');
    const script = await readScript(options.script);
    const resolved = createModel({
      provider: 'scripted',
      script,
      ...(options.model ? { modelId: options.model } : {}),
      ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
    });
    return {
      resolved,
      note: `scripted model from ${options.script}`,
      demo: false,
      contextWindow: resolved.contextWindow,
      maxOutputTokens: resolved.maxOutputTokens,
      windowSource: options.contextWindow ? 'flag' : 'table',
      pricing: null,
      spec: { provider: 'scripted', model: resolved.modelId },
    };
  }
  const stallSeconds =
    options.stallTimeoutSeconds ?? config.stallTimeoutSeconds ?? DEFAULT_STALL_TIMEOUT_SECONDS;
  const windowFrom = (configWindow: number | undefined) =>
    options.contextWindow !== null
      ? { window: options.contextWindow, source: 'flag' as const }
      : envWindow(env) !== undefined
        ? { window: envWindow(env), source: 'env' as const }
        : { window: configWindow, source: 'config' as const };

  if (options.provider !== null) {
    // Flags name the provider; the rest comes from flags, then the environment, then a config of the same provider.
    const fromConfig = config.provider === options.provider ? config : {};
    const spec = {
      provider: options.provider,
      model: options.model ?? env.CODEAGENT_MODEL ?? fromConfig.model,
      baseURL: options.baseUrl ?? env.CODEAGENT_BASE_URL ?? fromConfig.baseURL,
      apiKeyEnv: fromConfig.apiKeyEnv,
      maxOutputTokens: fromConfig.maxOutputTokens,
    };
    const resolved = modelFromSpec(spec, env);
    return finish(resolved, { ...spec, model: resolved.modelId }, windowFrom(fromConfig.contextWindow), {
      stallSeconds,
      pricing: fromConfig.pricing,
      env,
    });
  }
  const fromEnv = modelFromEnv({
    env: {
      ...env,
      ...(options.model ? { CODEAGENT_MODEL: options.model } : {}),
      ...(options.baseUrl ? { CODEAGENT_BASE_URL: options.baseUrl } : {}),
    },
  });
  if (fromEnv) {
    if (fromEnv.provider === 'scripted') {
      // CODEAGENT_PROVIDER=demo (or scripted without a script) is the demo tour: a temporary copy only.
      return demo('scripted demo model on a temporary copy of the demo workspace');
    }
    const baseURL = options.baseUrl ?? env.CODEAGENT_BASE_URL;
    return finish(
      fromEnv,
      { provider: fromEnv.provider, model: fromEnv.modelId, ...(baseURL ? { baseURL } : {}) },
      windowFrom(undefined),
      { stallSeconds, env },
    );
  }
  // A resumed session keeps its model; otherwise the config file's default.
  const remembered = ctx.remembered?.provider !== 'scripted' ? ctx.remembered : undefined;
  const base: ConfigModel | undefined = remembered ?? config;
  if (base?.provider !== undefined && base.provider !== 'scripted') {
    const spec = { ...base, provider: base.provider, ...(options.model ? { model: options.model } : {}) };
    const resolved = modelFromSpec(spec, env);
    return finish(
      resolved,
      { provider: spec.provider, model: resolved.modelId, baseURL: spec.baseURL, apiKeyEnv: spec.apiKeyEnv },
      windowFrom(remembered === undefined ? config.contextWindow : undefined),
      { stallSeconds, pricing: remembered === undefined ? config.pricing : undefined, env },
    );
  }
  throw new NoModelError(ctx.configPath);
}

/**
 * Resolves `/model <name>`: a named model of the config file, else a model id on the current provider and server.
 */
export async function switchModel(
  name: string,
  current: ChosenModel,
  ctx: ModelContext & { stallSeconds: number },
): Promise<ChosenModel> {
  if (current.demo || current.spec.provider === 'scripted') {
    throw new Error('the scripted model cannot be switched; start codeagent with a real model');
  }
  const named = ctx.config.models?.[name];
  const spec: ConfigModel & { provider: string } = named
    ? {
        ...named,
        provider: named.provider ?? current.spec.provider,
        baseURL: named.baseURL ?? current.spec.baseURL,
      }
    : {
        provider: current.spec.provider,
        model: name,
        baseURL: current.spec.baseURL,
        apiKeyEnv: current.spec.apiKeyEnv,
      };
  const resolved = modelFromSpec(spec, ctx.env);
  const chosen = await finish(
    resolved,
    { provider: spec.provider, model: resolved.modelId, baseURL: spec.baseURL, apiKeyEnv: spec.apiKeyEnv },
    { window: named?.contextWindow, source: 'config' },
    { stallSeconds: ctx.stallSeconds, pricing: named?.pricing, env: ctx.env },
  );
  return chosen;
}

async function readScript(path: string): Promise<Script> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read --script ${path}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`--script ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(data)) throw new Error(`--script ${path} must hold a JSON array of turns`);
  return data as Script;
}
