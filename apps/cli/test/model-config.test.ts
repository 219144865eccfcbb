import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, type OpenAIServerOptions, serverEnv, startOpenAIServer } from './chat-server.js';
import { runBin, tempRoot } from './run.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(options: OpenAIServerOptions) {
  const s = await startOpenAIServer(options);
  servers.push(s);
  return s;
}

describe('context windows', () => {
  it('an unknown model with a small context gives no false alarm, and the banner says the window is assumed', async () => {
    const { home, work, data } = await tempRoot();
    const s = await server({ replies: [{ text: 'hi', usage: { input: 1200, output: 10 } }] });
    const r = await runBin(['-p', 'hi', '--verbose', '--cwd', work, '--data-dir', data], {
      ...serverEnv(s, home),
      NO_COLOR: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('window 32.8k (assumed: unknown model; set --context-window)');
    expect(r.stderr).not.toMatch(/filling up|compact soon|context full/);
    expect(r.stderr).toMatch(/── [\d.]+k \/ 32\.8k\? tokens \([89]\d% left\) · in 1\.2k/);
    expect(s.modelsRequests).toBe(1); // it asked, the server had no /models
  });

  it('takes the window from the server /models listing', async () => {
    const { home, work, data } = await tempRoot();
    const s = await server({
      replies: [{ text: 'hi' }],
      models: [
        { id: 'other', max_model_len: 1_000_000 },
        { id: 'test-model', max_model_len: 8192 },
      ],
    });
    const r = await runBin(['-p', 'hi', '--verbose', '--cwd', work, '--data-dir', data], {
      ...serverEnv(s, home),
      NO_COLOR: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('window 8.2k from the server');
    expect(r.stderr).toMatch(/\/ 8\.2k tokens/);
  });

  it('--context-window wins over the server, and the server is not asked', async () => {
    const { home, work, data } = await tempRoot();
    const s = await server({
      replies: [{ text: 'hi' }],
      models: [{ id: 'test-model', max_model_len: 8192 }],
    });
    const r = await runBin(
      ['-p', 'hi', '--verbose', '--context-window', '131072', '--cwd', work, '--data-dir', data],
      {
        ...serverEnv(s, home),
        NO_COLOR: '1',
      },
    );
    expect(r.stderr).toContain('window 131.1k');
    expect(s.modelsRequests).toBe(0);
  });
});

describe('stall timeout', () => {
  it('a provider that stops sending mid-answer ends the turn with a clear error instead of hanging', async () => {
    const { home, work, data } = await tempRoot();
    const s = await server({ replies: () => ({ stallAfter: 'Hel' }) });
    const started = Date.now();
    const r = await runBin(
      ['-p', 'hi', '--stall-timeout', '0.5', '--cwd', work, '--data-dir', data],
      serverEnv(s, home),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'the provider stopped sending data for 500 ms, so the request was aborted (stall timeout)',
    );
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('config file and pricing', () => {
  it('reads provider, model, base URL and the NAME of the key variable from <data-dir>/config.json', async () => {
    const { home, work, data } = await tempRoot();
    const s = await server({ replies: [{ text: 'from config', usage: { input: 1000, output: 100 } }] });
    await writeFile(
      join(data, 'config.json'),
      JSON.stringify({
        provider: 'openai-compatible',
        baseURL: s.baseURL,
        model: 'gpt-4o',
        apiKeyEnv: 'MY_SERVER_KEY',
      }),
    );
    const r = await runBin(['-p', 'hi', '--verbose', '--cwd', work, '--data-dir', data], {
      HOME: home,
      MY_SERVER_KEY: 'sk-test-123',
      NO_COLOR: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('from config\n');
    expect(s.requests[0]?.headers.authorization).toBe('Bearer sk-test-123');
    expect(s.requests[0]?.body.model).toBe('gpt-4o');
    // gpt-4o list price: 1000 * $2.5/M + 100 * $10/M = $0.0035
    expect(r.stderr).toMatch(/── .* · \$0\.0035 · completed/);
  });

  it('flags and the environment win over the config file', async () => {
    const { home, work, data } = await tempRoot();
    const s = await server({ replies: [{ text: 'ok' }] });
    await writeFile(
      join(data, 'config.json'),
      JSON.stringify({ provider: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'nope' }),
    );
    const r = await runBin(['-p', 'hi', '--cwd', work, '--data-dir', data], serverEnv(s, home, 'env-model'));
    expect(r.code, r.stderr).toBe(0);
    expect(s.requests[0]?.body.model).toBe('env-model');
  });

  it.each([
    ['{"provider": 1}', 'provider must be a non-empty string'],
    ['{"modle": "x"}', '"modle" is not a known setting'],
    ['{"apiKeyEnv": "sk-live-abc123-def"}', 'apiKeyEnv must be the NAME of an environment variable'],
    ['{"contextWindow": 1.5}', 'contextWindow must be a positive whole number'],
    [
      '{"models": {"fast": {"pricing": {"inputPerMillion": -1, "outputPerMillion": 1}}}}',
      'models.fast.pricing must be',
    ],
    ['[1, 2]', 'must hold a JSON object'],
    ['{oops', 'not valid JSON'],
  ])('a broken config %s is an error naming the field, never ignored', async (text, message) => {
    const { home, work, data } = await tempRoot();
    await writeFile(join(data, 'config.json'), text);
    const r = await runBin(['-p', 'hi', '--cwd', work, '--data-dir', data], { HOME: home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(data, 'config.json'));
    expect(r.stderr).toContain(message);
  });

  it('the config path named in the no-model message is the one read', async () => {
    const { home, work, data } = await tempRoot();
    await mkdir(join(data, 'sessions'), { recursive: true });
    const r = await runBin(['-p', 'hi', '--cwd', work, '--data-dir', data], { HOME: home });
    expect(r.stderr).toContain(`${join(data, 'config.json')}  {"provider"`);
  });
});
