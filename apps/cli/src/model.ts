import { readFile } from 'node:fs/promises';
import {
  createModel,
  type ModelConfig,
  modelFromEnv,
  type ResolvedModel,
  type Script,
} from '@codeagent/providers';
import type { CliOptions } from './args.js';

/** The model a CLI run uses, and how it was chosen (shown to the user). */
export interface ChosenModel {
  resolved: ResolvedModel;
  /** A note for the banner, e.g. that the scripted demo model is in use. */
  note: string | null;
  /** The built-in demo tour: it only ever runs in a temporary copy of the demo workspace. */
  demo: boolean;
}

/** No model is configured: the CLI says how to configure one and runs nothing (exit status 2). */
export class NoModelError extends Error {
  override readonly name = 'NoModelError';
  constructor() {
    super(
      [
        'no model configured. Point codeagent at a model with flags, the environment or a config file:',
        '  codeagent --provider openai-compatible --base-url http://127.0.0.1:11434/v1 --model qwen2.5-coder',
        '  CODEAGENT_BASE_URL=... CODEAGENT_MODEL=...   (or OPENAI_API_KEY / ANTHROPIC_API_KEY)',
        '  ~/.codeagent/config.json  {"provider": "openai-compatible", "baseURL": "...", "model": "..."}',
        'To see the scripted tour instead (a temporary copy of a sample workspace, no network): codeagent demo',
      ].join('\n'),
    );
  }
}

function demo(note: string): ChosenModel {
  // No script: the providers package's built-in demo tour, with the limits it reports.
  return { resolved: createModel({ provider: 'scripted' }), note, demo: true };
}

/**
 * Chooses the model from flags, then the environment. With nothing configured it throws {@link NoModelError}:
 * the scripted demo never runs on a user's real files (only `codeagent demo`, on a temporary copy).
 */
export async function chooseModel(options: CliOptions, env: NodeJS.ProcessEnv): Promise<ChosenModel> {
  if (options.command === 'demo') return demo('scripted demo model (no network, no keys)');
  if (options.provider === 'scripted' || options.script !== null) {
    if (options.script === null) return demo('scripted demo model on a temporary copy of the demo workspace');
    const script = await readScript(options.script);
    return {
      resolved: createModel({
        provider: 'scripted',
        script,
        ...(options.model ? { modelId: options.model } : {}),
      }),
      note: `scripted model from ${options.script}`,
      demo: false,
    };
  }
  if (options.provider !== null) {
    const provider = options.provider;
    const pick = (name: string) => env[name];
    const config = {
      provider,
      ...((options.model ?? pick('CODEAGENT_MODEL'))
        ? { model: options.model ?? pick('CODEAGENT_MODEL') }
        : {}),
      ...((options.baseUrl ?? pick('CODEAGENT_BASE_URL'))
        ? { baseURL: options.baseUrl ?? pick('CODEAGENT_BASE_URL') }
        : {}),
      ...apiKeyFor(provider, env),
    } as ModelConfig;
    return { resolved: createModel(config), note: null, demo: false };
  }
  const fromEnv = modelFromEnv({
    env: {
      ...env,
      ...(options.model ? { CODEAGENT_MODEL: options.model } : {}),
      ...(options.baseUrl ? { CODEAGENT_BASE_URL: options.baseUrl } : {}),
    },
  });
  if (fromEnv) {
    // CODEAGENT_PROVIDER=demo (or scripted without a script) is the demo tour: a temporary copy only.
    const isDemo = fromEnv.provider === 'scripted';
    return {
      resolved: fromEnv,
      note: isDemo ? 'scripted demo model on a temporary copy of the demo workspace' : null,
      demo: isDemo,
    };
  }
  throw new NoModelError();
}

function apiKeyFor(provider: string, env: NodeJS.ProcessEnv): { apiKey?: string } {
  const key =
    env.CODEAGENT_API_KEY ??
    (provider === 'openai'
      ? env.OPENAI_API_KEY
      : provider === 'anthropic'
        ? env.ANTHROPIC_API_KEY
        : undefined);
  return key ? { apiKey: key } : {};
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
