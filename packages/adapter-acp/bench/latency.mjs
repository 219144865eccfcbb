// Benchmark: time from the model's first text delta (written by a loopback OpenAI-compatible server) to the
// editor receiving the first `agent_message_chunk`, over stdio through `serveAcp` in a child process, against
// the same model called in process with agent-core's `stream()` (time to the first `onDelta`). Both clocks are
// this process's. Run: `pnpm bench` (builds first). ROUNDS (default 40) prompts per side after 5 warm-ups.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { createClient, stream } from '@codeagent/agent-core';
import { createModel } from '@codeagent/providers';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import { startModelServer } from './model-server.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 40);
const WARMUP = 5;
const cwd = await mkdtemp(join(tmpdir(), 'adapter-acp-bench-'));
const server = await startModelServer();

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p10: q(0.1), p90: q(0.9) };
};

// Baseline: agent-core in process.
const model = createModel({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'bench' }).model;
const client = createClient({ model, cwd, skills: false });
const inProcess = [];
for (let i = 0; i < WARMUP + ROUNDS; i++) {
  let first = null;
  const before = server.firstDeltaAt.length;
  await stream(client, 'hi', {
    onDelta: () => {
      first ??= performance.now();
    },
  });
  if (i >= WARMUP) inProcess.push(first - server.firstDeltaAt[before]);
  client.clear();
}

// Ours: the adapter over stdio in a child process, driven by the SDK's client.
const child = spawn(
  process.execPath,
  [fileURLToPath(new URL('./agent.mjs', import.meta.url)), server.baseURL],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
const overStdio = [];
let firstChunk = null;
await acp
  .client({ name: 'bench' })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    if (params.update.sessionUpdate === 'agent_message_chunk') firstChunk ??= performance.now();
  })
  .connectWith(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)), async (ctx) => {
    await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      firstChunk = null;
      const before = server.firstDeltaAt.length;
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'hi' }],
      });
      if (i >= WARMUP) overStdio.push(firstChunk - server.firstDeltaAt[before]);
    }
  });
child.stdin.end();
await new Promise((resolve) => child.on('exit', resolve));
await server.close();

const base = stats(inProcess);
const suite = benchSuite(
  '@codeagent/adapter-acp',
  "time from the model's first delta (loopback OpenAI-compatible server) to the first agent_message_chunk over stdio",
);
suite.value({
  name: 'first chunk over stdio',
  what: `first agent_message_chunk after the model's first delta, serveAcp in a child process, ${ROUNDS} prompts (wall)`,
  unit: 'ms',
  values: overStdio,
  reference: base.median,
  baselineName: `stream() in process, median of ${ROUNDS}`,
  goal: { max: 1.5, note: 'the stdio hop adds well under a millisecond' },
  note: `in process p10-p90 ${base.p10.toFixed(2)}-${base.p90.toFixed(2)} ms; the two sides run one after the other, not interleaved (one child process serves all prompts)`,
});
suite.finish();
