import { createClient, defineTool, streamEvents } from '@codeagent/agent-core';
import { installPermissionGate } from '@codeagent/permission-gate';
import { jsonSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { type BackendFactory, backendScenarios, formatReport, runBackendSuite } from '../src/index.js';
import { recordReport } from './report-file.js';

/** agent-core as the backend: a harness-only client with the scenario's model, tools and ask callback. */
const agentCore: BackendFactory = (setup) => ({
  events: (input, options) => {
    const client = createClient({
      model: setup.model,
      registerTools: false,
      skills: false,
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
    });
    installPermissionGate(client, {
      mode: 'default',
      ask: (name, input, id) => setup.ask(name, input, id ?? ''),
    });
    return streamEvents(client, input, options) as AsyncIterable<{ type: string } & Record<string, unknown>>;
  },
});

describe('the backend suite', () => {
  it('scenarios have unique ids and provenance', () => {
    expect(new Set(backendScenarios.map((s) => s.id)).size).toBe(backendScenarios.length);
    for (const s of backendScenarios) expect(s.rule).toMatch(/CONTRACTS §[34]/);
  });

  it('@codeagent/agent-core passes every scenario', async () => {
    const report = await runBackendSuite('@codeagent/agent-core', agentCore);
    recordReport(report, 'in process, scripted model');
    expect(report.ok, formatReport(report, { verbose: true })).toBe(true);
    expect(report.counts.pass).toBe(backendScenarios.length);
  }, 60_000);

  it('a backend that breaks the event contract is caught with the scenario and the rule', async () => {
    const reordered: BackendFactory = async (setup) => {
      const inner = await agentCore(setup);
      return {
        async *events(input, options) {
          for await (const e of inner.events(input, options)) {
            if (e.type === 'tool-result') {
              const { type, view, ...rest } = e;
              yield { type, view, ...rest };
            } else yield e;
          }
        },
      };
    };
    const report = await runBackendSuite('reordered keys', reordered, {
      only: ['backend/read-tool-allowed'],
    });
    expect(report.ok).toBe(false);
    expect(formatReport(report)).toMatch(
      /FAIL backend\/read-tool-allowed {2}\[CONTRACTS §3[^\n]*\n\s+tool-result keys view,id/,
    );
    const runsDenied: BackendFactory = (setup) => agentCore({ ...setup, ask: async () => true });
    const denied = await runBackendSuite('approves everything', runsDenied, {
      only: ['backend/approval-denied'],
    });
    expect(formatReport(denied)).toMatch(/FAIL backend\/approval-denied/);
  }, 60_000);

  it('a backend that ignores the limits, or reports every stop as completed, is caught by scenario and rule', async () => {
    const unlimited: BackendFactory = (setup) => agentCore({ ...setup, limits: {} });
    const report = await runBackendSuite('ignores limits', unlimited, {
      only: ['backend/max-turns', 'backend/budget-exceeded'],
    });
    expect(report.ok).toBe(false);
    const text = formatReport(report);
    expect(text).toMatch(
      /FAIL backend\/max-turns {2}\[CONTRACTS §3 stop reason mapping: the step budget \(maxTurns\)[^\n]*\n\s+stopReason completed, expected max_turns/,
    );
    expect(text).toMatch(
      /FAIL backend\/budget-exceeded {2}\[CONTRACTS §3[^\n]*\n\s+stopReason completed, expected budget_exceeded/,
    );
    const alwaysCompleted: BackendFactory = async (setup) => {
      const inner = await agentCore(setup);
      return {
        async *events(input, options) {
          for await (const e of inner.events(input, options))
            yield e.type === 'end'
              ? { ...e, result: { ...(e.result as object), stopReason: 'completed' } }
              : e;
        },
      };
    };
    const completed = await runBackendSuite('always completed', alwaysCompleted, {
      only: ['backend/incomplete-tool-use'],
    });
    expect(formatReport(completed)).toMatch(
      /FAIL backend\/incomplete-tool-use {2}\[CONTRACTS §3 stop reason mapping: tool calls left unresolved[^\n]*\n\s+stopReason completed, expected incomplete_tool_use/,
    );
  }, 60_000);
});
