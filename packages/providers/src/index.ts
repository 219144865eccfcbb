/**
 * `@codeagent/providers`: AI SDK models from a config object or the environment, and a deterministic
 * scripted model (with a built-in demo) that runs with no network.
 *
 * @packageDocumentation
 */
export type {
  AnthropicModelConfig,
  EnvLike,
  EnvVarName,
  FetchFunction,
  HttpModelConfigBase,
  ModelConfig,
  ModelFromEnvOptions,
  OpenAICompatibleModelConfig,
  OpenAIModelConfig,
  ProviderName,
  ResolvedModel,
  ScriptedModelConfig,
} from './create-model.js';
export { createModel, DEFAULT_MODELS, ENV_VARS, modelFromEnv, PROVIDER_NAMES } from './create-model.js';
export {
  DEMO_DENIED_COMMAND,
  DEMO_EXHAUSTED_TEXT,
  DEMO_PERMISSIONS,
  demoModel,
  demoScript,
  findJobId,
} from './demo.js';
export type { ProvidersErrorCode } from './errors.js';
export { isProvidersError, ProvidersError } from './errors.js';
export type { JsonValue } from './json.js';
export type { FetchServerModelOptions, ServerModelInfo } from './server-models.js';
export { fetchServerModelInfo, parseServerModels } from './server-models.js';
export { withStallTimeout } from './stall.js';
export type { ModelLimits, ModelLimitsEntry, ModelLimitsOverride } from './limits.js';
export { DEFAULT_MODEL_LIMITS, MODEL_LIMITS, modelLimits } from './limits.js';
export type { ModelPricing, ModelPricingEntry } from './pricing.js';
export { MODEL_PRICING, modelPricing } from './pricing.js';
export type {
  Script,
  ScriptContext,
  ScriptedModel,
  ScriptedModelOptions,
  ScriptFinishReason,
  ScriptPart,
  ScriptStep,
  ScriptThrow,
  ScriptToolResult,
  ScriptTurn,
  ScriptUsage,
} from './scripted.js';
export { chunkText, promptToolResults, SCRIPT_EXHAUSTED_TEXT, scriptedModel } from './scripted.js';
