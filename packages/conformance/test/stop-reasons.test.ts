import { join } from 'node:path';
import { mapStopReason, STOP_REASONS } from '@codeagent/agent-core';
import { describe, expect, it } from 'vitest';
import {
  formatReport,
  runStopReasonSuite,
  runSuite,
  STOP_REASON_OPS,
  type StopFactsVector,
  startHost,
  stopReasonSuite,
} from '../src/index.js';
import { recordReport } from './report-file.js';

const agentCore = (facts: StopFactsVector) =>
  mapStopReason({ ...facts, finishReason: facts.finishReason ?? undefined });
const host = (file: string) => join(import.meta.dirname, '..', 'hosts', file);

describe('the stop-reasons suite', () => {
  it('carries render-intent’s vector file: every finish reason and stop reason, with the rule and its source', () => {
    expect(stopReasonSuite.length).toBeGreaterThanOrEqual(25);
    expect(new Set(stopReasonSuite.map((v) => v.id)).size).toBe(stopReasonSuite.length);
    expect(new Set(stopReasonSuite.map((v) => v.expected))).toEqual(new Set(STOP_REASONS));
    const finishes = new Set(stopReasonSuite.map((v) => (v.args[0] as StopFactsVector).finishReason));
    for (const f of ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other', null])
      expect(finishes).toContain(f);
    for (const v of stopReasonSuite) {
      expect(STOP_REASON_OPS, v.id).toContain(v.op);
      expect(v.rule, v.id).toMatch(/^CONTRACTS\.md §3.*\(from: .+\)$/);
    }
  });

  it('@codeagent/agent-core’s mapping passes in process', async () => {
    const report = await runStopReasonSuite('@codeagent/agent-core (mapStopReason)', agentCore);
    recordReport(report, 'in process');
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.counts.pass).toBe(stopReasonSuite.length);
  });

  it('passes through the TypeScript and the Python reference hosts over NDJSON', async () => {
    for (const [command, how] of [
      [`${process.execPath} ${host('typescript/host.mjs')}`, 'NDJSON (TypeScript host)'],
      [`python3 ${host('python/codeagent_conformance_host.py')}`, 'NDJSON (Python host)'],
    ] as const) {
      const h = await startHost(command);
      try {
        const report = await runSuite(h, { suite: 'stop-reasons' });
        recordReport(report, how);
        expect(report.ok, formatReport(report)).toBe(true);
        expect(report.counts.pass, how).toBe(stopReasonSuite.length);
      } finally {
        await h.close();
      }
    }
  }, 60_000);

  it('a deliberately broken mapping is caught by vector id and rule', async () => {
    // Forgets unresolved tool calls and checks the step budget before an error.
    const broken = (f: StopFactsVector) => {
      if (f.aborted) return 'interrupted';
      if (f.hitMaxTurns) return 'max_turns';
      return agentCore({ ...f, unresolvedToolCalls: 0 });
    };
    const report = await runStopReasonSuite('broken mapping', broken);
    expect(report.ok).toBe(false);
    const text = formatReport(report);
    expect(text).toMatch(
      /FAIL stop-reasons\/loop\/unresolved-after-other {2}\[CONTRACTS\.md §3 stop reasons: tool calls left unresolved -> incomplete_tool_use \(from: Anthropic pause_turn[^\]]*\]\n\s+\$: expected "incomplete_tool_use", got "completed"/,
    );
    expect(text).toMatch(
      /FAIL stop-reasons\/loop\/budget-beats-max-turns {2}\[[^\]]*\]\n\s+\$: expected "budget_exceeded", got "max_turns"/,
    );
    // A baseline that lists the failures passes, and fails again when one of them is fixed.
    const failing = new Set(report.results.filter((r) => r.outcome === 'fail').map((r) => r.id));
    expect((await runStopReasonSuite('broken mapping', broken, { baseline: failing })).ok).toBe(true);
    const fixed = await runStopReasonSuite('fixed mapping', agentCore, { baseline: failing });
    expect(fixed.ok).toBe(false);
    expect(fixed.counts['unexpected-pass']).toBe(failing.size);
  });
});
