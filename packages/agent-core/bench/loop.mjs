// Benchmark: one turn of 100,000 text deltas and 1,000 tool calls through agent-core's `stream()`
// versus a bare AI SDK `streamText` consuming `fullStream` with an equivalent tool, on the same mock
// model; plus the heap held by an idle client. Run: `pnpm bench` (builds first). Needs --expose-gc.
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { createClient, defineTool, stream } from '../dist/index.js';
import { installPermissionGate } from '@codeagent/permission-gate';

const TEXT_DELTAS = Number(process.env.DELTAS ?? 100_000);
const TOOL_CALLS = Number(process.env.TOOL_CALLS ?? 1_000);
const STEPS = 10; // tool steps; one more text-only step ends the turn
const ROUNDS = Number(process.env.ROUNDS ?? 9);

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 50, text: 50, reasoning: 0 },
};

function stepChunks(step) {
  const chunks = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: `t${step}` },
  ];
  const deltas = TEXT_DELTAS / (STEPS + 1);
  for (let i = 0; i < deltas; i++) chunks.push({ type: 'text-delta', id: `t${step}`, delta: 'tok ' });
  chunks.push({ type: 'text-end', id: `t${step}` });
  if (step < STEPS) {
    for (let i = 0; i < TOOL_CALLS / STEPS; i++) {
      chunks.push({
        type: 'tool-call',
        toolCallId: `call_${step}_${i}`,
        toolName: 'echo',
        input: `{"i":${i}}`,
      });
    }
    chunks.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage });
  } else {
    chunks.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
  }
  return chunks;
}
const SCRIPT = Array.from({ length: STEPS + 1 }, (_, s) => stepChunks(s));

function mockModel() {
  let n = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      const chunks = SCRIPT[n++ % SCRIPT.length];
      let i = 0;
      return {
        stream: new ReadableStream({
          pull(controller) {
            // Enqueue in batches so the source itself costs the same for both sides.
            for (let k = 0; k < 256 && i < chunks.length; k++) controller.enqueue(chunks[i++]);
            if (i >= chunks.length) controller.close();
          },
        }),
      };
    },
  });
}

const schema = z.object({ i: z.number() });

async function bare() {
  let chars = 0;
  let results = 0;
  const result = streamText({
    model: mockModel(),
    messages: [{ role: 'user', content: 'go' }],
    tools: { echo: tool({ description: 'Echo', inputSchema: schema, execute: ({ i }) => `ok ${i}` }) },
    stopWhen: stepCountIs(100),
    maxRetries: 0,
  });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') chars += part.text.length;
    else if (part.type === 'tool-result') results++;
  }
  if (results !== TOOL_CALLS) throw new Error(`bare: ${results} tool results`);
  return chars;
}

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  inputSchema: schema,
  capability: 'read',
  execute: ({ i }) => `ok ${i}`,
});

async function ours(withGate) {
  let chars = 0;
  let results = 0;
  const client = createClient({ model: mockModel(), registerTools: false, tools: [echo] });
  if (withGate) installPermissionGate(client, { mode: 'default' });
  const r = await stream(client, 'go', {
    onDelta: (t) => {
      chars += t.length;
    },
    onToolResult: () => {
      results++;
    },
  });
  if (r.stopReason !== 'completed' || results !== TOOL_CALLS)
    throw new Error(`stream: ${r.stopReason}, ${results} results`);
  return chars;
}

async function time(fn) {
  // Start every run from a collected heap so no run pays for the garbage of the one before.
  globalThis.gc();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const min = (xs) => Math.min(...xs);

// Warm up every path once, then alternate so drift and other load hit all three alike.
await bare();
await ours(false);
await ours(true);
const runs = { bare: [], ours: [], gate: [] };
const paths = { bare, ours: () => ours(false), gate: () => ours(true) };
const order = ['bare', 'ours', 'gate'];
for (let r = 0; r < ROUNDS; r++) {
  // Rotate the order each round so no path always runs first or last.
  for (let k = 0; k < order.length; k++) {
    const name = order[(r + k) % order.length];
    runs[name].push(await time(paths[name]));
  }
}
const stat = (k, f) => {
  const xs = runs[k];
  if (f === 'wallMin') return min(xs.map((x) => x.wall));
  if (f === 'wallMed') return median(xs.map((x) => x.wall));
  return min(xs.map((x) => x.cpu));
};

// Noise-free attribution: profile one stream() turn and count the CPU samples whose frame is our code.
async function attribution() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  await ours(false);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const share = { total: 0, 'agent-core': 0, siblings: 0, gc: 0 };
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const { url, functionName } = byId.get(id).callFrame;
    share.total += dt;
    if (url.includes('/agent-core/dist/')) share['agent-core'] += dt;
    else if (/\/(render-intent|artifact-schema|permission-gate|skills)\/dist\//.test(url))
      share.siblings += dt;
    else if (functionName === '(garbage collector)') share.gc += dt;
  });
  return share;
}
const attr = await attribution();

function heapPerClient(make, n = 1000) {
  globalThis.gc();
  const h0 = process.memoryUsage().heapUsed;
  const keep = [];
  for (let i = 0; i < n; i++) keep.push(make());
  globalThis.gc();
  const h1 = process.memoryUsage().heapUsed;
  if (keep.length !== n) throw new Error('unreachable');
  return (h1 - h0) / n;
}
const model = mockModel();
const heapHarness = heapPerClient(() => createClient({ model, registerTools: false, tools: [echo] }));
const heapDefault = heapPerClient(() => createClient({ model, tools: [echo], skills: { hint: false } }));

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`.padStart(8);
const row = (label, k) => {
  const r = (f) => (stat(k, f) / stat('bare', f)).toFixed(3);
  return `  ${label.padEnd(33)} wall min ${fmt(stat(k, 'wallMin'))} (x${r('wallMin')})  wall median ${fmt(stat(k, 'wallMed'))} (x${r('wallMed')})  cpu min ${fmt(stat(k, 'cpu'))} (x${r('cpu')})`;
};
console.log(
  `agent-core bench: one turn = ${TEXT_DELTAS.toLocaleString('en')} text deltas + ${TOOL_CALLS.toLocaleString('en')} tool calls (${STEPS + 1} model requests), ${ROUNDS} alternating rounds after a warm-up`,
);
console.log(row('bare streamText + fullStream', 'bare'));
console.log(row('stream(), harness-only client', 'ours'));
console.log(row('stream(), with a permission gate', 'gate'));
console.log('  target: stream() / bare <= 1.10');
const pct = (k) => `${((attr[k] / attr.total) * 100).toFixed(1)}%`;
console.log(
  `  profile of one stream() turn: agent-core code ${pct('agent-core')} of CPU samples, artifact-schema/render-intent/permission-gate/skills ${pct('siblings')}, GC ${pct('gc')}, the rest is the AI SDK and web streams`,
);
console.log(
  `  heap per idle client: harness-only ${(heapHarness / 1024).toFixed(1)} KiB, registerTools (gate + use_skill) ${(heapDefault / 1024).toFixed(1)} KiB`,
);
