import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const ENV_NAMES = [
  'CODEAGENT_PROVIDER',
  'CODEAGENT_MODEL',
  'CODEAGENT_BASE_URL',
  'CODEAGENT_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'CODEAGENT_OPENAI_API',
  'CODEAGENT_CONTEXT_WINDOW',
  'CODEAGENT_MAX_OUTPUT_TOKENS',
];

async function quickStart() {
  // README quick start: begin
  const { modelFromEnv, scriptedModel } = await import('../src/index.js');
  const { jsonSchema, stepCountIs, streamText, tool } = await import('ai');

  // A real model from CODEAGENT_* / OPENAI_API_KEY / ANTHROPIC_API_KEY, or null when nothing is set.
  const configured = modelFromEnv();
  console.log(
    configured
      ? `${configured.provider}/${configured.modelId}: ${configured.contextWindow} tokens`
      : 'no model set',
  );

  // A deterministic model for tests and offline demos: one step per request.
  const model = scriptedModel([
    { parts: [{ type: 'tool-call', toolName: 'add', input: { a: 2, b: 3 } }] },
    (context) => `2 + 3 = ${context.toolResults[0]?.text}`,
  ]);
  const add = tool({
    inputSchema: jsonSchema<{ a: number; b: number }>({ type: 'object', required: ['a', 'b'] }),
    execute: async ({ a, b }) => a + b,
  });
  const result = streamText({ model, prompt: 'What is 2 + 3?', tools: { add }, stopWhen: stepCountIs(3) });
  console.log(await result.text); // 2 + 3 = 5
  // README quick start: end
}

describe('README quick start', () => {
  beforeAll(() => {
    for (const name of ENV_NAMES) vi.stubEnv(name, undefined);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('runs and prints what the README says', async () => {
    const spy = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await quickStart();
      expect(spy.mock.calls).toEqual([['no model set'], ['2 + 3 = 5']]);
    } finally {
      spy.mockRestore();
    }
  });

  it('is the code shown in README.md (imports from the package name there)', () => {
    const own = readFileSync(new URL(import.meta.url), 'utf8');
    const body =
      own.split('// README quick start: begin\n')[1]?.split('  // README quick start: end')[0] ?? '';
    const expected = body
      .replace(
        "const { modelFromEnv, scriptedModel } = await import('../src/index.js');",
        "import { modelFromEnv, scriptedModel } from '@codeagent/providers';",
      )
      .replace(
        "const { jsonSchema, stepCountIs, streamText, tool } = await import('ai');",
        "import { jsonSchema, stepCountIs, streamText, tool } from 'ai';",
      )
      .split('\n')
      .map((line) => line.replace(/^ {2}/u, ''))
      .join('\n')
      .trim();
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /## Quick start[\s\S]*?```ts\n([\s\S]*?)```/u.exec(readme)?.[1]?.trim();
    expect(block).toBe(expected);
  });
});
