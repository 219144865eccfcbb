import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { createClient, loadSession } from '@codeagent/agent-core';
import { type Script, scriptedModel } from '@codeagent/providers';
import { createBuiltinToolkit } from '@codeagent/tools';
import { type AcpAgentOptions, createAcpAgent, createMemorySessionStore } from '../src/index.js';

/** A permission answer the fake editor gives, in order. */
export type Answer = 'allow_once' | 'allow_always' | 'reject_once' | 'cancelled' | 'bogus' | 'malformed';

/** A temp workspace with a few files. */
export async function workspace(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'adapter-acp-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/** Everything an in-process editor saw. */
export interface EditorRun {
  readonly updates: acp.SessionNotification[];
  readonly permissions: acp.RequestPermissionRequest[];
  /** Session notifications and permission requests, in arrival order. */
  readonly wire: Array<{ method: string; params: unknown }>;
  /** Every NDJSON line the agent wrote, verbatim. */
  readonly lines: string[];
}

/** A byte pipe that also records each complete line written through it. */
function recordingPipe(lines: string[] | null): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  return new TransformStream({
    transform(chunk, controller) {
      if (lines) {
        buffer += decoder.decode(chunk, { stream: true });
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        lines.push(...parts.filter((l) => l !== ''));
      }
      controller.enqueue(chunk);
    },
  });
}

/**
 * Runs an agent (scripted model, real built-in tools in `cwd`) against an in-process SDK client; `drive` gets
 * the client context. Permission requests are answered from `answers`.
 */
export async function withEditor<T>(
  options: {
    readonly cwd: string;
    readonly script: Script;
    readonly answers?: Answer[];
    readonly terminal?: boolean;
    readonly agent?: Partial<AcpAgentOptions>;
  },
  drive: (ctx: acp.ClientContext, run: EditorRun) => Promise<T>,
): Promise<T> {
  const model = scriptedModel(options.script);
  const answers = options.answers ?? [];
  const store = options.agent?.store ?? createMemorySessionStore();
  let n = 0;
  const agent = createAcpAgent({
    store,
    newSessionId: () => `session-${++n}`,
    skills: false,
    createSession: ({ cwd, saved }) => {
      const toolkit = createBuiltinToolkit({ cwd });
      const opts = { model, cwd, tools: toolkit.tools, skills: false as const };
      const client = saved === undefined ? createClient(opts) : loadSession(saved, opts);
      return { client, dispose: () => toolkit.dispose() };
    },
    ...options.agent,
  });
  const run: EditorRun = { updates: [], permissions: [], wire: [], lines: [] };
  const client = acp
    .client({ name: 'test-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      run.updates.push(params);
      run.wire.push({ method: 'session/update', params });
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      run.permissions.push(params);
      run.wire.push({ method: 'session/request_permission', params });
      const answer = answers.shift() ?? 'reject_once';
      if (answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
      if (answer === 'bogus')
        return { outcome: { outcome: 'selected', optionId: 'allow_everything_forever' } };
      if (answer === 'malformed')
        return { outcome: { outcome: 'selected' } } as unknown as acp.RequestPermissionResponse;
      return { outcome: { outcome: 'selected', optionId: answer } };
    });
  // A real NDJSON wire between the two, in memory: what the agent writes is exactly what stdio would carry.
  const toAgent = recordingPipe(null);
  const toEditor = recordingPipe(run.lines);
  const connection = agent.app.connect(acp.ndJsonStream(toEditor.writable, toAgent.readable));
  try {
    return await client.connectWith(acp.ndJsonStream(toAgent.writable, toEditor.readable), async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: options.terminal ? { _meta: { terminal_output: true } } : {},
      });
      return drive(ctx, run);
    });
  } finally {
    connection.close();
    await agent.dispose();
  }
}

/** Sends one text prompt in a new session; returns the session id and the stop reason. */
export async function promptOnce(ctx: acp.ClientContext, cwd: string, text: string) {
  const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text }],
  });
  return { sessionId, stopReason };
}
