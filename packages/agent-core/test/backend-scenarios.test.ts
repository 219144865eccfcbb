import { installPermissionGate } from '@codeagent/permission-gate';
import { type Script, scriptedModel } from '@codeagent/providers';
import file from '@codeagent/render-intent/vectors/backend-scenarios.json' with { type: 'json' };
import { jsonSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { type AgentEvent, createClient, defineTool, streamEvents } from '../src/index.js';

// The shared backend scenarios (also run by @codeagent/conformance's runBackendSuite against any backend): this
// client, harness-only, with each scenario's scripted model, tools, approval answers and limits.
interface Expectation {
  events?: string[];
  stopReason?: string;
  text?: string;
  usage?: null;
  lastEvent?: string;
  toolResults?: { id: string; name: string; value?: string; valuePrefix?: string; isError: boolean }[];
  intents?: (string | null)[];
  requestViews?: unknown[];
  asked?: string[];
  notExecuted?: string[];
  modelRequests?: number;
}
interface Scenario {
  id: string;
  rule: string;
  input: string;
  inputRepeat?: number;
  limits?: { maxTurns?: number; contextWindow?: number };
  turns: unknown[];
  tools: { name: string; capability: 'read' | 'write' | 'exec' | 'net'; result?: unknown; throws?: string }[];
  approve?: boolean[];
  abortAfterEvents?: number;
  expect: Expectation;
}

const scenarios = file.scenarios as Scenario[];
const keys = (e: AgentEvent) => Object.keys(e).filter((k) => k !== 'type');

async function run(s: Scenario) {
  const executed: string[] = [];
  const asked: string[] = [];
  const answers = [...(s.approve ?? [])];
  const model = scriptedModel(s.turns as Script, { chunkSize: 8 });
  const client = createClient({
    model,
    registerTools: false,
    skills: false,
    retry: { maxRetries: 0 },
    ...(s.limits?.maxTurns === undefined ? {} : { maxTurns: s.limits.maxTurns }),
    ...(s.limits?.contextWindow === undefined ? {} : { contextWindow: s.limits.contextWindow }),
    tools: s.tools.map((t) =>
      defineTool({
        name: t.name,
        description: `scenario tool ${t.name}`,
        capability: t.capability,
        inputSchema: jsonSchema({ type: 'object' }),
        execute: async () => {
          executed.push(t.name);
          if (t.throws !== undefined) throw new Error(t.throws);
          return t.result as string;
        },
      }),
    ),
  });
  installPermissionGate(client, {
    mode: 'default',
    ask: (name, _input, id) => {
      asked.push(`${name}:${id ?? ''}`);
      return answers.shift() === true;
    },
  });
  const controller = new AbortController();
  const events: AgentEvent[] = [];
  for await (const e of streamEvents(client, s.input.repeat(s.inputRepeat ?? 1), {
    signal: controller.signal,
  })) {
    events.push(e);
    const seen = events.filter((x) => x.type !== 'tick').length;
    if (s.abortAfterEvents !== undefined && seen === s.abortAfterEvents) controller.abort();
  }
  return { events, executed, asked, requests: model.requestCount };
}

describe('backend scenarios (@codeagent/render-intent/vectors/backend-scenarios.json)', () => {
  it.each(scenarios.map((s) => [s.id, s] as const))('%s', async (_id, s) => {
    const { events, executed, asked, requests } = await run(s);
    const x = s.expect;
    const end = events.at(-1);
    expect(end?.type, s.rule).toBe('end');
    if (end?.type !== 'end') return;
    expect(events.filter((e) => e.type === 'end')).toHaveLength(1);
    const shape: string[] = [];
    for (const e of events)
      if (e.type !== 'tick' && e.type !== 'compaction' && shape.at(-1) !== e.type) shape.push(e.type);
    if (x.events) expect(shape, s.rule).toEqual(x.events);
    if (x.stopReason !== undefined) expect(end.result.stopReason, s.rule).toBe(x.stopReason);
    if (x.text !== undefined) expect(end.result.text, s.rule).toBe(x.text);
    if (x.usage === null) expect(end.result.usage, s.rule).toBeNull();
    const requests_ = events.filter((e) => e.type === 'tool-request');
    const results = events.filter((e) => e.type === 'tool-result');
    for (const r of requests_) expect(keys(r)).toEqual(['id', 'name', 'arguments', 'intent', 'view']);
    for (const r of results) {
      expect(keys(r)).toEqual(['id', 'name', 'display', 'value', 'isError', 'artifact', 'view']);
      expect(events.findIndex((e) => e.type === 'tool-request' && e.id === r.id)).toBeLessThan(
        events.indexOf(r),
      );
    }
    for (const [i, want] of (x.toolResults ?? []).entries()) {
      const got = results[i];
      expect(got && { id: got.id, name: got.name, isError: got.isError }, s.rule).toEqual({
        id: want.id,
        name: want.name,
        isError: want.isError,
      });
      if (want.value !== undefined) expect(got?.value).toBe(want.value);
      if (want.valuePrefix !== undefined) expect(got?.value.startsWith(want.valuePrefix)).toBe(true);
    }
    if (x.intents) expect(requests_.map((e) => e.intent)).toEqual(x.intents);
    if (x.requestViews) expect(requests_.map((e) => e.view)).toEqual(x.requestViews);
    if (x.asked) expect(asked).toEqual(x.asked);
    for (const name of x.notExecuted ?? []) expect(executed).not.toContain(name);
    if (x.lastEvent !== undefined) expect(end.type).toBe(x.lastEvent);
    if (x.modelRequests !== undefined) expect(requests, s.rule).toBe(x.modelRequests);
  });

  it('cover every stop reason the loop can reach from a script, each scenario with its CONTRACTS rule', () => {
    const reasons = new Set(scenarios.map((s) => s.expect.stopReason).filter(Boolean));
    for (const r of [
      'completed',
      'truncated',
      'filtered',
      'error',
      'interrupted',
      'max_turns',
      'budget_exceeded',
      'incomplete_tool_use',
    ])
      expect(reasons, r).toContain(r);
    for (const s of scenarios) expect(s.rule, s.id).toMatch(/CONTRACTS §[34]/);
  });
});
