import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '@codeagent/artifact-schema/internal';

/** One model as the config file names it. Keys are never stored: only the name of the variable that holds one. */
export interface ConfigModel {
  provider?: string | undefined;
  model?: string | undefined;
  baseURL?: string | undefined;
  /** Name of the environment variable that holds the API key (e.g. `OPENROUTER_API_KEY`). */
  apiKeyEnv?: string | undefined;
  contextWindow?: number | undefined;
  maxOutputTokens?: number | undefined;
  /** Price in dollars per million tokens, for models the built-in table does not know. */
  pricing?: { inputPerMillion: number; outputPerMillion: number } | undefined;
}

/** `<data-dir>/config.json`: the default model, named models for `/model`, and the stall timeout (permissions live in settings files). */
export interface CliConfig extends ConfigModel {
  /** Named models: `/model <name>` switches to one. */
  models?: Record<string, ConfigModel>;
  /** Seconds without a byte from the provider before a request is aborted (0: never). */
  stallTimeoutSeconds?: number;
}

/** The config file name inside the data directory. */
export const CONFIG_FILE = 'config.json';

const MODEL_KEYS = [
  'provider',
  'model',
  'baseURL',
  'apiKeyEnv',
  'contextWindow',
  'maxOutputTokens',
  'pricing',
];
const TOP_KEYS = [...MODEL_KEYS, 'models', 'stallTimeoutSeconds', '$schema'];

/** A config file that cannot be used: the message names the file and the field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function fail(path: string, field: string, what: string): never {
  throw new ConfigError(`${path}: ${field} ${what}`);
}

function checkModel(
  path: string,
  where: string,
  raw: Record<string, unknown>,
  allowed: readonly string[],
): ConfigModel {
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key))
      fail(
        path,
        `${where}${JSON.stringify(key).slice(0, 60)}`,
        `is not a known setting (known: ${allowed.filter((k) => k !== '$schema').join(', ')})`,
      );
  }
  const out: ConfigModel = {};
  for (const key of ['provider', 'model', 'baseURL', 'apiKeyEnv'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '' || value.length > 2048)
      fail(path, `${where}${key}`, 'must be a non-empty string');
    out[key] = value.trim();
  }
  if (out.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/u.test(out.apiKeyEnv)) {
    fail(
      path,
      `${where}apiKeyEnv`,
      'must be the NAME of an environment variable (the key itself never goes in this file)',
    );
  }
  for (const key of ['contextWindow', 'maxOutputTokens'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
      fail(path, `${where}${key}`, 'must be a positive whole number');
    out[key] = value;
  }
  if (raw.pricing !== undefined) {
    const p = raw.pricing;
    const ok =
      isRecord(p) &&
      Object.keys(p).every((k) => k === 'inputPerMillion' || k === 'outputPerMillion') &&
      typeof p.inputPerMillion === 'number' &&
      typeof p.outputPerMillion === 'number' &&
      Number.isFinite(p.inputPerMillion) &&
      Number.isFinite(p.outputPerMillion) &&
      p.inputPerMillion >= 0 &&
      p.outputPerMillion >= 0;
    if (!ok)
      fail(
        path,
        `${where}pricing`,
        'must be {"inputPerMillion": n, "outputPerMillion": n} with numbers >= 0',
      );
    out.pricing = {
      inputPerMillion: p.inputPerMillion as number,
      outputPerMillion: p.outputPerMillion as number,
    };
  }
  return out;
}

/** Validates parsed config JSON; throws {@link ConfigError} naming the file and field. */
export function parseConfig(data: unknown, path: string): CliConfig {
  if (!isRecord(data)) fail(path, 'the file', 'must hold a JSON object');
  const config: CliConfig = checkModel(path, '', data, TOP_KEYS);
  if (data.models !== undefined) {
    if (!isRecord(data.models)) fail(path, 'models', 'must be an object of named models');
    const models: Record<string, ConfigModel> = {};
    for (const [name, entry] of Object.entries(data.models)) {
      if (!/^[\w.:@/-]{1,64}$/u.test(name))
        fail(
          path,
          `models.${JSON.stringify(name).slice(0, 60)}`,
          'needs a name of letters, digits and . _ - : @ /',
        );
      if (!isRecord(entry)) fail(path, `models.${name}`, 'must be an object');
      models[name] = checkModel(path, `models.${name}.`, entry, MODEL_KEYS);
    }
    config.models = models;
  }
  if (data.stallTimeoutSeconds !== undefined) {
    const n = data.stallTimeoutSeconds;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 86_400)
      fail(path, 'stallTimeoutSeconds', 'must be a number of seconds from 0 to 86400');
    config.stallTimeoutSeconds = n;
  }
  return config;
}

/** Reads `<dataDir>/config.json` (absent: `{}`); a broken file is a {@link ConfigError}, never silently ignored. */
export async function loadConfig(
  dataDir: string,
): Promise<{ config: CliConfig; path: string; found: boolean }> {
  const path = join(dataDir, CONFIG_FILE);
  const info = await stat(path).catch(() => null);
  if (info === null) return { config: {}, path, found: false };
  if (!info.isFile()) throw new ConfigError(`${path}: not a file`);
  if (info.size > 1024 * 1024) throw new ConfigError(`${path}: larger than 1 MiB`);
  const text = await readFile(path, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON (${(error as Error).message.slice(0, 120)})`);
  }
  return { config: parseConfig(data, path), path, found: true };
}
