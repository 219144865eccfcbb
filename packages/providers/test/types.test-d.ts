import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createModel,
  type ModelConfig,
  modelFromEnv,
  type ProviderName,
  type ResolvedModel,
  type ScriptContext,
  type ScriptedModel,
  type ScriptPart,
  type ScriptStep,
  type ScriptThrow,
  type ScriptTurn,
  scriptedModel,
} from '../src/index.js';

describe('types', () => {
  it('returns resolved models carrying a V3 model', () => {
    expectTypeOf(createModel).returns.toEqualTypeOf<ResolvedModel>();
    expectTypeOf(modelFromEnv).returns.toEqualTypeOf<ResolvedModel | null>();
    expectTypeOf<ResolvedModel['model']>().toEqualTypeOf<LanguageModelV3>();
    expectTypeOf<ResolvedModel['provider']>().toEqualTypeOf<ProviderName>();
    expectTypeOf(scriptedModel).returns.toEqualTypeOf<ScriptedModel>();
    expectTypeOf<ScriptedModel>().toExtend<LanguageModelV3>();
  });

  it('narrows the config union on provider', () => {
    const config = {} as ModelConfig;
    if (config.provider === 'openai-compatible') expectTypeOf(config.baseURL).toEqualTypeOf<string>();
    if (config.provider === 'openai')
      expectTypeOf(config.api).toEqualTypeOf<'responses' | 'chat' | undefined>();
    // @ts-expect-error openai-compatible requires a baseURL and a model
    createModel({ provider: 'openai-compatible' });
    // @ts-expect-error anthropic requires an apiKey
    createModel({ provider: 'anthropic' });
    // @ts-expect-error no such provider
    createModel({ provider: 'gemini' });
  });

  it('keeps the script part union closed and steps flexible', () => {
    expectTypeOf<ScriptPart['type']>().toEqualTypeOf<'text' | 'reasoning' | 'tool-call' | 'error'>();
    expectTypeOf<'plain text'>().toExtend<ScriptStep>();
    expectTypeOf<(c: ScriptContext) => string>().toExtend<ScriptStep>();
    // @ts-expect-error an image part is not part of the script vocabulary
    scriptedModel([{ parts: [{ type: 'image', data: '' }] }]);
    // @ts-expect-error finish reasons are the V3 unified set
    scriptedModel([{ finishReason: 'done' }]);
    expectTypeOf<ScriptTurn['throws']>().toEqualTypeOf<string | ScriptThrow | undefined>();
    // @ts-expect-error a failure needs a message
    scriptedModel([{ throws: { statusCode: 500 } }]);
    // @ts-expect-error a step function must return a turn or a string
    scriptedModel([() => 42]);
  });
});
