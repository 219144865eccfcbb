// The README quick start, run against an in-memory editor: initialize, one prompt, then stdin closes.
import { PassThrough, Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { scriptedModel } from '@codeagent/providers';
import { expect, it } from 'vitest';
import { workspace } from './helpers.js';

it('README quick start serves an editor until stdin closes', async () => {
  const project = await workspace();
  const model = scriptedModel([{ parts: [{ type: 'text', text: 'Hello from the README.' }] }]);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const process = { stdin, stdout };

  // --- quick start (keep in sync with README.md) ---
  const { serveAcp } = await import('@codeagent/adapter-acp');
  const { createClient, loadSession } = await import('@codeagent/agent-core');
  const { createBuiltinToolkit } = await import('@codeagent/tools');

  const served = serveAcp(
    {
      agentInfo: { name: 'my-agent', version: '1.0.0' },
      createSession: ({ cwd, saved }) => {
        const toolkit = createBuiltinToolkit({ cwd });
        const options = { model, cwd, tools: toolkit.tools };
        const client = saved === undefined ? createClient(options) : loadSession(saved, options);
        return { client, dispose: () => toolkit.dispose() };
      },
    },
    { input: process.stdin, output: process.stdout },
  );
  // --- end quick start ---

  const text: string[] = [];
  await acp
    .client({ name: 'readme' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text') {
        text.push(params.update.content.text);
      }
    })
    .connectWith(
      acp.ndJsonStream(
        Writable.toWeb(stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(stdout) as unknown as ReadableStream<Uint8Array>,
      ),
      async (ctx) => {
        const init = await ctx.request(acp.methods.agent.initialize, {
          protocolVersion: 1,
          clientCapabilities: {},
        });
        expect(init.agentInfo).toEqual({ name: 'my-agent', version: '1.0.0' });
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
          cwd: project,
          mcpServers: [],
        });
        const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'hi' }],
        });
        expect(stopReason).toBe('end_turn');
      },
    );
  stdin.end();
  await served;
  expect(text.join('')).toBe('Hello from the README.');
});
