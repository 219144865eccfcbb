import * as acp from '@agentclientprotocol/sdk';
import { createClient } from '@codeagent/agent-core';
import { scriptedModel } from '@codeagent/providers';
import { describe, expect, it } from 'vitest';
import type { AcpHostCommand } from '../src/index.js';
import { withEditor, workspace } from './helpers.js';

/** A host command as an MCP prompt would give one: its expansion names the arguments it got. */
const review: AcpHostCommand = {
  name: 'mcp__fixture__review',
  description: 'Review a file \u001b[31mred\u001b[0m',
  argumentHint: '<file> [focus]',
  expand: async (args) => `Review ${args.trim() || 'nothing'}`,
};
const failing: AcpHostCommand = {
  name: 'mcp__down__prompt',
  description: 'A server that is gone',
  expand: async () => {
    throw new Error('MCP server down could not start');
  },
};

function waitFor<T>(list: T[], test: (x: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const hit = list.find(test);
      if (hit !== undefined) resolve(hit);
      else if (Date.now() > deadline) reject(new Error('timed out'));
      else setTimeout(poll, 10);
    };
    poll();
  });
}

describe("the host's commands (MCP prompts)", () => {
  it('are listed in available_commands_update after the skills, and a prompt naming one sends its expansion', async () => {
    const cwd = await workspace();
    const model = scriptedModel([{ parts: [{ type: 'text', text: 'Reviewed.' }] }]);
    let client: ReturnType<typeof createClient> | undefined;
    await withEditor(
      {
        cwd,
        script: [],
        agent: {
          createSession: ({ cwd: dir }) => {
            client = createClient({ model, cwd: dir, tools: [], skills: false });
            return { client, commands: [review, failing] };
          },
        },
      },
      async (ctx, run) => {
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
        const update = await waitFor(
          run.updates,
          (u) => u.update.sessionUpdate === 'available_commands_update',
        );
        const listed = update.update as acp.AvailableCommandsUpdate;
        expect(listed.availableCommands).toEqual([
          {
            name: 'mcp__fixture__review',
            description: 'Review a file red',
            input: { hint: '<file> [focus]' },
          },
          { name: 'mcp__down__prompt', description: 'A server that is gone' },
        ]);
        const done = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: '/mcp__fixture__review src/a.ts security' }],
        });
        expect(done.stopReason).toBe('end_turn');
        const users = (client?.history ?? []).filter((m) => m.role === 'user');
        expect(JSON.stringify(users.at(-1)?.content)).toContain('Review src/a.ts security');
        expect(JSON.stringify(users)).not.toContain('/mcp__fixture__review');
        // A failing expansion is an error answer, and the session is free for the next prompt.
        await expect(
          ctx.request(acp.methods.agent.session.prompt, {
            sessionId,
            prompt: [{ type: 'text', text: '/mcp__down__prompt' }],
          }),
        ).rejects.toThrow(/could not start/);
        // A prompt that only starts like a command is sent as written.
        await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: '/mcp__fixture__reviewer x' }],
        });
        expect(JSON.stringify(client?.history.filter((m) => m.role === 'user').at(-1)?.content)).toContain(
          '/mcp__fixture__reviewer x',
        );
      },
    );
  });
});
