import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { createClient, defineTool, loadSession } from '@codeagent/agent-core';
import type { Script } from '@codeagent/providers';
import { scriptedModel } from '@codeagent/providers';
import { createBuiltinToolkit } from '@codeagent/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemorySessionStore } from '../src/index.js';
import { withEditor, workspace } from './helpers.js';

const bash = (command: string): Script[number] => ({
  parts: [{ type: 'tool-call', toolName: 'Bash', input: { command } }],
});
const done: Script[number] = { parts: [{ type: 'text', text: 'ok' }] };

async function prompt(ctx: acp.ClientContext, sessionId: string, text: string) {
  return ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
}

/** A package whose scripts leave a file per run, so the test sees what ran. */
const pkg = JSON.stringify({
  name: 'w',
  version: '1.0.0',
  scripts: { test: "node -e \"require('fs').writeFileSync('ran-'+Date.now()+Math.random(),'')\"" },
});

describe('"allow always" is permission-gate\'s scoped session grant', () => {
  it('always for `npm test` allows `npm test -- x` unasked but asks for `npm publish`; the label names the scope', async () => {
    const cwd = await workspace({ 'package.json': pkg });
    const script: Script = [bash('npm test'), done, bash('npm test -- x'), done, bash('npm publish'), done];
    await withEditor({ cwd, script, answers: ['allow_always', 'reject_once'] }, async (ctx, run) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      await prompt(ctx, sessionId, 'one');
      await prompt(ctx, sessionId, 'two');
      await prompt(ctx, sessionId, 'three');
      expect(run.permissions.map((p) => p.toolCall.rawInput)).toEqual([
        { command: 'npm test' },
        { command: 'npm publish' },
      ]);
      const always = run.permissions[0]?.options.find((o) => o.optionId === 'allow_always');
      expect(always?.name).toBe('Always allow Bash commands starting with `npm test` in this session');
      expect(always?.kind).toBe('allow_always');
    });
    // `npm test` ran twice (once approved, once by the grant); `npm publish` was rejected.
    expect(readdirSync(cwd).filter((f) => f.startsWith('ran-'))).toHaveLength(2);
  }, 60_000);

  it('a chained command is never covered by a prefix grant', async () => {
    const cwd = await workspace({ 'package.json': pkg });
    const script: Script = [bash('npm test'), done, bash('npm test && touch pwned'), done];
    await withEditor({ cwd, script, answers: ['allow_always', 'reject_once'] }, async (ctx, run) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      await prompt(ctx, sessionId, 'one');
      await prompt(ctx, sessionId, 'two');
      expect(run.permissions).toHaveLength(2);
      // Chaining cannot be scoped: no "always" for it.
      expect(run.permissions[1]?.options.map((o) => o.optionId)).toEqual(['allow_once', 'reject_once']);
    });
    expect(existsSync(join(cwd, 'pwned'))).toBe(false);
  }, 60_000);

  it('never tool-wide: a tool the gate could only grant whole gets no "allow always", and the answer anyway is a rejection', async () => {
    const cwd = await workspace();
    let ran = 0;
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys',
      inputSchema: z.object({ target: z.string() }),
      capability: 'exec',
      execute: () => {
        ran += 1;
        return 'deployed';
      },
    });
    const script: Script = [
      { parts: [{ type: 'tool-call', toolName: 'deploy', input: { target: 'prod' } }] },
      done,
      { parts: [{ type: 'tool-call', toolName: 'deploy', input: { target: 'prod' } }] },
      done,
    ];
    const model = scriptedModel(script);
    await withEditor(
      {
        cwd,
        script,
        answers: ['allow_always', 'allow_once'],
        agent: {
          createSession: ({ cwd: dir }) => ({
            client: createClient({ model, cwd: dir, tools: [deploy], skills: false }),
          }),
        },
      },
      async (ctx, run) => {
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
        await prompt(ctx, sessionId, 'one');
        await prompt(ctx, sessionId, 'two');
        expect(run.permissions).toHaveLength(2);
        for (const p of run.permissions)
          expect(p.options.map((o) => o.optionId)).toEqual(['allow_once', 'reject_once']);
      },
    );
    // The unoffered "always" was a rejection; the second call was allowed once.
    expect(ran).toBe(1);
  });

  it("like the CLI's, a grant does not survive session/load: the loaded session asks again", async () => {
    const cwd = await workspace({ 'package.json': pkg });
    const store = createMemorySessionStore();
    const script: Script = [bash('npm test'), done, bash('npm test'), done];
    const model = scriptedModel(script);
    const agent = {
      store,
      createSession: ({ cwd: dir, saved }: { cwd: string; saved?: unknown }) => {
        const toolkit = createBuiltinToolkit({ cwd: dir });
        const opts = { model, cwd: dir, tools: toolkit.tools, skills: false as const };
        return {
          client: saved === undefined ? createClient(opts) : loadSession(saved, opts),
          dispose: () => toolkit.dispose(),
        };
      },
    };
    let id = '';
    await withEditor({ cwd, script, answers: ['allow_always'], agent }, async (ctx, run) => {
      ({ sessionId: id } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }));
      await prompt(ctx, id, 'one');
      expect(run.permissions).toHaveLength(1);
    });
    await withEditor({ cwd, script, answers: ['reject_once'], agent }, async (ctx, run) => {
      await ctx.request(acp.methods.agent.session.load, { sessionId: id, cwd, mcpServers: [] });
      await prompt(ctx, id, 'two');
      expect(run.permissions.map((p) => p.toolCall.rawInput)).toEqual([{ command: 'npm test' }]);
    });
  }, 60_000);
});
