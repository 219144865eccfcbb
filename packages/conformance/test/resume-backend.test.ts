import {
  type AgentEvent,
  type CodeagentClient,
  createClient,
  defineTool,
  loadSession,
  type PendingStep,
  type ResumeAnswer,
  resumeTurnEvents,
  SESSION_FORMAT,
  SESSION_VERSION,
  streamEvents,
} from '@codeagent/agent-core';
import { installPermissionGate } from '@codeagent/permission-gate';
import { jsonSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  type BackendEvent,
  type BackendFactory,
  type BackendSetup,
  backendScenarios,
  formatReport,
  runBackendSuite,
} from '../src/index.js';

/** A harness-only agent-core client for a scenario, restored from `messages` when given. */
function client(setup: BackendSetup, ask: BackendSetup['ask'], messages?: unknown[]): CodeagentClient {
  const options = {
    model: setup.model,
    registerTools: false,
    skills: false as const,
    tools: setup.tools.map((t) =>
      defineTool({
        name: t.name,
        description: t.description,
        capability: t.capability,
        inputSchema: jsonSchema({ type: 'object' }),
        execute: (args) => t.execute(args),
      }),
    ),
    retry: { maxRetries: 0 },
    ...(setup.limits.maxTurns === undefined ? {} : { maxTurns: setup.limits.maxTurns }),
    ...(setup.limits.contextWindow === undefined ? {} : { contextWindow: setup.limits.contextWindow }),
  };
  const c =
    messages === undefined
      ? createClient(options)
      : loadSession(
          {
            format: SESSION_FORMAT,
            version: SESSION_VERSION,
            savedAt: new Date(0).toISOString(),
            cwd: process.cwd(),
            permissionMode: 'default',
            messages,
            toolResults: [],
            compactions: [],
            compactionFailures: 0,
            lastReportedTokens: 0,
          },
          options,
        );
  installPermissionGate(c, { mode: 'default', ask: (name, input, id) => ask(name, input, id ?? '') });
  return c;
}

/**
 * agent-core as a backend whose process "dies" at every approval: the turn parks, the user's answer is taken, a new
 * client restored from what a host stores (the history before the step, `client.pendingStep()`) continues it through
 * `resumeTurnEvents`. Its events must pass the same scenarios as a live turn.
 */
let resumes = 0;
const restartedAtEveryApproval: BackendFactory = (setup) => ({
  async *events(input, options) {
    let parked: { step: PendingStep; answer: ResumeAnswer } | null = null;
    const first = new AbortController();
    const outer = options.signal;
    outer?.addEventListener('abort', () => first.abort(), { once: true });
    let live: CodeagentClient | null = null;
    const c = client(setup, async (name, args, id) => {
      const step = live?.pendingStep() ?? null;
      const approved = await setup.ask(name, args, id);
      if (step === null || step.requests !== 1) throw new Error('this backend parks in the first step only');
      parked = { step, answer: { id, approved, input: args } };
      first.abort();
      return new Promise<boolean>(() => undefined);
    });
    live = c;
    for await (const e of streamEvents(c, input, { signal: first.signal })) {
      // What the dead process delivered up to its park; nothing after it reached anyone.
      if (parked !== null) continue;
      yield e as BackendEvent;
    }
    const p = parked as { step: PendingStep; answer: ResumeAnswer } | null;
    if (p === null) return;
    resumes++;
    const restored = client(setup, async () => {
      throw new Error('a resumed approval asked again');
    }, [{ role: 'user', content: input }]);
    const events = resumeTurnEvents(
      restored,
      { step: p.step, answers: [p.answer] },
      outer ? { signal: outer } : {},
    );
    for await (const e of events as AsyncIterable<AgentEvent>) yield e as unknown as BackendEvent;
  },
});

describe('the backend suite through a restart at every approval', () => {
  it('agent-core resumed from the stored step passes every scenario a live turn passes', async () => {
    const report = await runBackendSuite(
      '@codeagent/agent-core (restarted at approvals)',
      restartedAtEveryApproval,
    );
    expect(report.ok, formatReport(report, { verbose: true })).toBe(true);
    expect(report.counts.pass).toBe(backendScenarios.length);
    // Every scenario with an approval went through the resume path.
    expect(resumes).toBe(backendScenarios.filter((s) => (s.approve ?? []).length > 0).length);
    expect(resumes).toBeGreaterThan(0);
  }, 60_000);
});
