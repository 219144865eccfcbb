import { describe, expect, it } from 'vitest';

describe('public surface', () => {
  it('pins the root export names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'DEFAULT_MODELS',
      'DEFAULT_MODEL_LIMITS',
      'DEMO_DENIED_COMMAND',
      'DEMO_EXHAUSTED_TEXT',
      'DEMO_PERMISSIONS',
      'ENV_VARS',
      'MODEL_LIMITS',
      'MODEL_PRICING',
      'PROVIDER_NAMES',
      'ProvidersError',
      'SCRIPT_EXHAUSTED_TEXT',
      'chunkText',
      'createModel',
      'demoModel',
      'demoScript',
      'fetchServerModelInfo',
      'findJobId',
      'isProvidersError',
      'modelFromEnv',
      'modelLimits',
      'modelPricing',
      'parseServerModels',
      'promptToolResults',
      'scriptedModel',
      'withStallTimeout',
    ]);
  });

  it('pins the Node-only subpath export names', async () => {
    expect(Object.keys(await import('../src/node.js')).sort()).toEqual([
      'copyDemoWorkspace',
      'demoWorkspacePath',
    ]);
  });

  it('pins the protocol constants hosts configure against', async () => {
    const api = await import('../src/index.js');
    expect(api.PROVIDER_NAMES).toEqual(['openai-compatible', 'openai', 'anthropic', 'scripted']);
    expect(api.DEMO_PERMISSIONS).toEqual({ permissionMode: 'bypass', rules: { deny: ['Bash(rm *)'] } });
    expect(api.DEMO_DENIED_COMMAND).toBe('rm -rf build');
    expect(Object.isFrozen(api.MODEL_LIMITS) && Object.isFrozen(api.DEMO_PERMISSIONS)).toBe(true);
  });

  it('keeps the root entry free of Node built-ins (the scripted model runs in a browser)', async () => {
    const { readFile, readdir } = await import('node:fs/promises');
    const dir = new URL('../src/', import.meta.url);
    for (const file of await readdir(dir)) {
      if (!file.endsWith('.ts') || file === 'node.ts') continue;
      expect(await readFile(new URL(file, dir), 'utf8'), file).not.toMatch(/from 'node:/u);
    }
  });
});
