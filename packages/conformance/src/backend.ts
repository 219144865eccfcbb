import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Capability } from '@codeagent/permission-gate';
import { type Script, scriptedModel } from '@codeagent/providers';
import { jsonDifference } from './compare.js';
import { buildReport, type ConformanceReport, caseResult, type VectorResult } from './run.js';
import scenarios from '@codeagent/render-intent/vectors/backend-scenarios.json' with { type: 'json' };

/** A tool a backend scenario registers: what the model may call, and what it does. */
export interface BackendTool {
  /** Tool name. */
  readonly name: string;
  /** Its description for the model. */
  readonly description: string;
  /** Its capability for the permission gate (one of the gate's four). */
  readonly capability: Capability;
  /** Runs it (records the call; returns the scenario's result or throws its error). */
  execute(args: unknown): Promise<unknown>;
}

/** What the kit hands a backend factory for one scenario. */
export interface BackendSetup {
  /** A deterministic AI SDK model (specification v3) that replays the scenario's script. */
  readonly model: LanguageModelV3;
  /** The tools to register (harness-only: no built-in coding tools). */
  readonly tools: readonly BackendTool[];
  /** The approval callback to install in the default permission mode: answers as the scenario says. */
  readonly ask: (name: string, input: unknown, id: string) => Promise<boolean>;
  /** Limits the backend must be configured with for this scenario (none: its defaults). */
  readonly limits: BackendLimits;
}

/**
 * Limits a scenario configures: a backend that cannot honour one fails that scenario (list it in a baseline).
 */
export interface BackendLimits {
  /** The most model requests of one turn (agent-core `maxTurns`): reaching it ends the turn with `max_turns`. */
  readonly maxTurns?: number;
  /** The model's context window in tokens (agent-core `contextWindow`): an input past its blocking level ends the
   * turn with `budget_exceeded` before any request. */
  readonly contextWindow?: number;
}

/** One event of a backend's stream (`{type: 'delta', text}`, `{type: 'end', result}`, ...). */
export type BackendEvent = { readonly type: string } & Readonly<Record<string, unknown>>;

/** A backend under test: streams the events of one turn. */
export interface Backend {
  /** The turn's events, in order, ending with `{type: 'end', result}`. */
  events(input: string, options: { signal: AbortSignal }): AsyncIterable<BackendEvent>;
}

/** Makes a backend for a scenario (e.g. a codeagent client with the setup's model, tools and ask callback). */
export type BackendFactory = (setup: BackendSetup) => Backend | Promise<Backend>;

/** A tool of a scenario, as data. */
export interface BackendToolSpec {
  /** Tool name. */
  readonly name: string;
  /** Its capability. */
  readonly capability: BackendTool['capability'];
  /** What it returns. */
  readonly result?: unknown;
  /** The message it throws instead. */
  readonly throws?: string;
}

/** What a scenario's event stream must show. */
export interface BackendExpectation {
  /** The event types in order (runs of one type collapsed, ticks dropped). */
  readonly events?: readonly string[];
  /** The end result's stop reason. */
  readonly stopReason?: string;
  /** The end result's text. */
  readonly text?: string;
  /** `null`: the end result's usage must be null (an error). */
  readonly usage?: null;
  /** The type of the last event. */
  readonly lastEvent?: string;
  /** The tool results, in order: id, name, error flag, and the value or its prefix. */
  readonly toolResults?: readonly {
    readonly id: string;
    readonly name: string;
    readonly value?: string;
    readonly valuePrefix?: string;
    readonly isError: boolean;
  }[];
  /** The intents of the tool requests, in order. */
  readonly intents?: readonly (string | null)[];
  /** The `view` of each tool request, in order (the call's card, built from the arguments without `_intent`). */
  readonly requestViews?: readonly unknown[];
  /** The approvals asked, as `name:id`. */
  readonly asked?: readonly string[];
  /** Tools that must not have run. */
  readonly notExecuted?: readonly string[];
  /** How many requests the model got (the scripted model counts them). */
  readonly modelRequests?: number;
}

/** A backend scenario: a scripted model, tools, approval answers, and what the event stream must show. */
export interface BackendScenario {
  /** Unique id, `backend/<case>`. */
  readonly id: string;
  /** The rule and where it comes from. */
  readonly rule: string;
  /** The user input. */
  readonly input: string;
  /** Send the input repeated this many times (a huge input without a huge vector file). */
  readonly inputRepeat?: number;
  /** Limits to configure the backend with. */
  readonly limits?: BackendLimits;
  /** The model's script, one turn per request (JSON: `@codeagent/providers` ScriptTurn). */
  readonly turns: readonly unknown[];
  /** Tools to register. */
  readonly tools: readonly BackendToolSpec[];
  /** Answers of the ask callback, in order (missing answers deny). */
  readonly approve?: readonly boolean[];
  /** Abort the turn after this many events. */
  readonly abortAfterEvents?: number;
  /** What must be seen. */
  readonly expect: BackendExpectation;
}

/**
 * The backend scenarios (event order, key order of tool results, approvals, errors, stop reasons, abort), from
 * `@codeagent/render-intent/vectors/backend-scenarios.json`, the file agent-core's own tests run too.
 */
export const backendScenarios: readonly BackendScenario[] = scenarios.scenarios as readonly BackendScenario[];

/** The key order of a tool-result event (CONTRACTS §3: the seed's six, `view` appended). */
export const TOOL_RESULT_KEYS = ['id', 'name', 'display', 'value', 'isError', 'artifact', 'view'] as const;
/** The key order of a tool-request event. */
export const TOOL_REQUEST_KEYS = ['id', 'name', 'arguments', 'intent', 'view'] as const;

/** Collapses runs of the same event type (delta chunking is the model's business) and drops heartbeats. */
function shape(events: readonly BackendEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === 'tick' || e.type === 'compaction') continue;
    if (out.at(-1) !== e.type) out.push(e.type);
  }
  return out;
}

const keysOf = (e: BackendEvent) => Object.keys(e).filter((k) => k !== 'type');

async function runScenario(s: BackendScenario, factory: BackendFactory): Promise<string | null> {
  const executed: string[] = [];
  const asked: string[] = [];
  const answers = [...(s.approve ?? [])];
  const tools: BackendTool[] = s.tools.map((t) => ({
    name: t.name,
    description: `scenario tool ${t.name}`,
    capability: t.capability,
    async execute() {
      executed.push(t.name);
      if (t.throws !== undefined) throw new Error(t.throws);
      return t.result;
    },
  }));
  const model = scriptedModel(s.turns as Script, { chunkSize: 8 });
  const backend = await factory({
    model,
    limits: s.limits ?? {},
    tools,
    ask: async (name, _input, id) => {
      asked.push(`${name}:${id}`);
      return answers.shift() === true;
    },
  });
  const controller = new AbortController();
  const events: BackendEvent[] = [];
  const input = s.input.repeat(s.inputRepeat ?? 1);
  for await (const e of backend.events(input, { signal: controller.signal })) {
    events.push(e);
    if (
      s.abortAfterEvents !== undefined &&
      events.filter((x) => x.type !== 'tick').length === s.abortAfterEvents
    )
      controller.abort();
    if (events.length > 100_000) return 'more than 100,000 events: the stream does not end';
  }
  const x = s.expect;
  const end = events.at(-1);
  if (end?.type !== 'end') return `the last event is ${end?.type ?? 'missing'}, not end`;
  const result = (end.result ?? {}) as Record<string, unknown>;
  if (events.filter((e) => e.type === 'end').length !== 1) return 'more than one end event';
  if (x.events && shape(events).join(',') !== x.events.join(','))
    return `events ${shape(events).join(',')}, expected ${x.events.join(',')}`;
  if (x.stopReason !== undefined && result.stopReason !== x.stopReason)
    return `stopReason ${String(result.stopReason)}, expected ${x.stopReason}`;
  if (x.text !== undefined && result.text !== x.text)
    return `text ${JSON.stringify(result.text)}, expected ${JSON.stringify(x.text)}`;
  if (x.usage === null && result.usage !== null) return 'usage must be null on an error';
  for (const req of events.filter((e) => e.type === 'tool-request')) {
    if (keysOf(req).join(',') !== TOOL_REQUEST_KEYS.join(','))
      return `tool-request keys ${keysOf(req).join(',')}, expected ${TOOL_REQUEST_KEYS.join(',')}`;
  }
  const results = events.filter((e) => e.type === 'tool-result');
  for (const r of results) {
    if (keysOf(r).join(',') !== TOOL_RESULT_KEYS.join(','))
      return `tool-result keys ${keysOf(r).join(',')}, expected ${TOOL_RESULT_KEYS.join(',')} in that order`;
    const request = events.findIndex((e) => e.type === 'tool-request' && e.id === r.id);
    if (request === -1 || request > events.indexOf(r))
      return `tool-result ${String(r.id)} has no tool-request before it`;
  }
  for (const [i, want] of (x.toolResults ?? []).entries()) {
    const got = results[i];
    if (!got) return `tool result ${i} missing`;
    if (got.id !== want.id || got.name !== want.name || got.isError !== want.isError) {
      return `tool result ${i}: ${JSON.stringify({ id: got.id, name: got.name, isError: got.isError })}, expected ${JSON.stringify({ id: want.id, name: want.name, isError: want.isError })}`;
    }
    if (want.value !== undefined && got.value !== want.value)
      return `tool result ${i} value ${JSON.stringify(got.value)}, expected ${JSON.stringify(want.value)}`;
    if (want.valuePrefix !== undefined && !String(got.value).startsWith(want.valuePrefix)) {
      return `tool result ${i} value ${JSON.stringify(got.value)} does not start with ${JSON.stringify(want.valuePrefix)}`;
    }
  }
  if (x.intents) {
    const intents = events.filter((e) => e.type === 'tool-request').map((e) => e.intent);
    if (JSON.stringify(intents) !== JSON.stringify(x.intents))
      return `intents ${JSON.stringify(intents)}, expected ${JSON.stringify(x.intents)}`;
  }
  if (x.requestViews) {
    const views = events.filter((e) => e.type === 'tool-request').map((e) => e.view);
    for (const [i, want] of x.requestViews.entries()) {
      const d = jsonDifference(views[i], want, `tool-request[${i}].view`);
      if (d) return d;
    }
  }
  if (x.asked && asked.join(',') !== x.asked.join(','))
    return `asked ${asked.join(',') || 'nothing'}, expected ${x.asked.join(',') || 'nothing'}`;
  for (const name of x.notExecuted ?? [])
    if (executed.includes(name)) return `${name} ran although it was denied`;
  if (x.lastEvent !== undefined && end.type !== x.lastEvent) return `the last event is ${end.type}`;
  if (x.modelRequests !== undefined && model.requestCount !== x.modelRequests)
    return `the model got ${model.requestCount} requests, expected ${x.modelRequests}`;
  return null;
}

/**
 * Runs the backend scenarios against a backend factory: the event contract (order, one end event, tool-request before
 * its result, the key orders of both), approvals granted and denied, a throwing tool, a provider error, stop reasons
 * and an abort, with an optional expected-failures baseline.
 */
export async function runBackendSuite(
  name: string,
  factory: BackendFactory,
  options: { baseline?: ReadonlySet<string>; only?: readonly string[]; timeoutMs?: number } = {},
): Promise<ConformanceReport> {
  const baseline = options.baseline ?? new Set<string>();
  const results: VectorResult[] = [];
  for (const s of backendScenarios.filter(
    (c) => !options.only || options.only.some((p) => c.id.startsWith(p)),
  )) {
    const started = performance.now();
    let problem: string | null;
    try {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((resolve) => {
        timer = setTimeout(
          () => resolve(`no end within ${options.timeoutMs ?? 10_000} ms`),
          options.timeoutMs ?? 10_000,
        );
      });
      problem = await Promise.race([runScenario(s, factory), timeout]);
      clearTimeout(timer);
    } catch (error) {
      problem = `the backend threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    results.push(
      caseResult({ id: s.id, rule: s.rule, op: 'stream' }, problem, baseline, performance.now() - started),
    );
  }
  return buildReport(
    'backend',
    name,
    results,
    backendScenarios.map((x) => x.id),
    baseline,
  );
}
