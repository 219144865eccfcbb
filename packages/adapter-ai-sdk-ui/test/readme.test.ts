import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentUIChat } from '@codeagent/adapter-ai-sdk-ui';
import { createClient } from '@codeagent/agent-core';
import { installPermissionGate } from '@codeagent/permission-gate';
import { scriptedModel } from '@codeagent/providers';
import { createUIMessageStreamResponse, type LanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

// The README quick start, verbatim (the test below checks that the README still says exactly this).
export function chatHandler(model: LanguageModel, cwd: string) {
  const client = createClient({ model, cwd });
  const chat = createAgentUIChat({ client, onChange: (messages) => save(messages) });
  installPermissionGate(client, { mode: 'default', cwd, ask: chat.ask });
  // POST body of useChat's DefaultChatTransport: { id, messages, trigger, ... }
  return async (request: Request): Promise<Response> => {
    const { messages } = (await request.json()) as { messages: unknown[] };
    const stream = chat.respond(messages.at(-1), { signal: request.signal });
    return createUIMessageStreamResponse({ stream });
  };
}

function save(messages: readonly unknown[]): void {
  // Store the UI history (a reload renders it, waiting approvals included).
  void messages;
}

describe('README', () => {
  it('shows the quick start this file runs', () => {
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    const start = source.indexOf('export function chatHandler');
    const end = source.indexOf("describe('README'");
    const body = source.slice(start, end).trim();
    expect(readme).toContain(body);
  });

  it('answers a useChat request with a UI message stream', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'adapter-readme-'));
    try {
      const handler = chatHandler(
        scriptedModel([{ parts: [{ type: 'text', text: 'Hello from the README.' }] }]),
        cwd,
      );
      const response = await handler(
        new Request('http://127.0.0.1/api/chat', {
          method: 'POST',
          body: JSON.stringify({
            messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
          }),
        }),
      );
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const text = await response.text();
      expect(text).toContain('"type":"text-delta"');
      expect(text).toContain('"delta":"README."');
      expect(text).toContain('"stopReason":"completed"');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
