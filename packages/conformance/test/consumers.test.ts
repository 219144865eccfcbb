import { join } from 'node:path';
import { acpStopReason, toolCallNotice, toolResultNotices } from '@codeagent/adapter-acp';
import { createPermissionGate, type PermissionGateOptions } from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import {
  createBuiltinPresenters,
  createToolPresenter,
  terminalFallbackText,
  type ToolCallView,
  type ToolPresentationLookup,
  type ToolPresenter,
  type ToolResultInput,
  type ToolResultView,
} from '@codeagent/render-intent';
import { renderToolCall, renderToolResult, type ToolResultData } from '@codeagent/terminal';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACP_MAPPING_OPS,
  acpMappingSuite,
  type ConformanceReport,
  formatReport,
  GRANT_OPS,
  grantSessionOp,
  grantsSuite,
  inProcess,
  presentSessionOp,
  RENDER_INTENT_OPS,
  renderIntentSuite,
  runSuite,
  runTerminalRendererSuite,
  type SuiteName,
  startHost,
  TERMINAL_VIEW_OP,
  terminalViewsSuite,
} from '../src/index.js';
import { recordReport } from './report-file.js';

beforeAll(() => loadInstalledShellGrammar());

type Ctx = { cwd: string; terminalOutput: boolean };
type CardInput = { call: ToolCallView } | { result: ToolResultView; data?: ToolResultData };

const presentBuiltin = (cwd: string, tool: string, args: unknown, result: ToolResultInput) => {
  const builtins: Record<
    string,
    ToolPresentationLookup extends (n: string) => infer P ? P : never
  > = createBuiltinPresenters({ cwd });
  const presenter = createToolPresenter((name) =>
    Object.hasOwn(builtins, name) ? builtins[name] : undefined,
  );
  return { call: presenter.call('call_1', tool, args), result: presenter.result('call_1', result) };
};
const renderIntent = inProcess('@codeagent/render-intent', {
  presentSession: presentSessionOp(createToolPresenter),
  terminalFallbackText,
  presentBuiltin,
});
const terminalViews = (render: (input: CardInput) => string, name = '@codeagent/terminal') =>
  inProcess(name, { [TERMINAL_VIEW_OP]: render });
const plainCards = (input: CardInput) =>
  'call' in input
    ? renderToolCall(input.call, { color: false, width: 80 })
    : renderToolResult(input.result, input.data ?? {}, { color: false, width: 80 });
const acpOps = {
  acpToolCall: (id: string, view: ToolCallView, rawInput: unknown, ctx: Ctx) =>
    toolCallNotice(id, view, rawInput, ctx),
  acpToolResult: (id: string, call: ToolCallView | null, view: ToolResultView, isError: boolean, ctx: Ctx) =>
    toolResultNotices(id, call ?? undefined, view, isError, ctx),
  acpStopReason,
};
const gateOps = {
  grantScope: (options: PermissionGateOptions, name: string, input: unknown) =>
    createPermissionGate(options).grantScope(name, input),
  grantSession: grantSessionOp(createPermissionGate),
};

const SUITES: readonly { suite: SuiteName; size: number; ops: readonly string[] }[] = [
  { suite: 'render-intent', size: renderIntentSuite.length, ops: RENDER_INTENT_OPS },
  { suite: 'terminal-views', size: terminalViewsSuite.length, ops: [TERMINAL_VIEW_OP] },
  { suite: 'acp-mapping', size: acpMappingSuite.length, ops: ACP_MAPPING_OPS },
  { suite: 'grants', size: grantsSuite.length, ops: GRANT_OPS },
];

function expectConforms(report: ConformanceReport, how: string): void {
  recordReport(report, how);
  expect(report.ok, formatReport(report)).toBe(true);
  expect(report.counts.pass, formatReport(report)).toBe(report.results.length);
}

describe('the render-intent, terminal-views, acp-mapping and grants suites', () => {
  it('carry the packages’ own vectors with provenance, unique ids and known operations', () => {
    expect(renderIntentSuite.length).toBeGreaterThanOrEqual(50);
    expect(terminalViewsSuite.length).toBeGreaterThanOrEqual(20);
    expect(acpMappingSuite.length).toBeGreaterThanOrEqual(35);
    expect(grantsSuite.length).toBeGreaterThanOrEqual(35);
    for (const { suite, ops } of SUITES) {
      const vectors = {
        'render-intent': renderIntentSuite,
        'terminal-views': terminalViewsSuite,
        'acp-mapping': acpMappingSuite,
        grants: grantsSuite,
      }[suite as 'grants'];
      expect(new Set(vectors.map((v) => v.id)).size, suite).toBe(vectors.length);
      for (const v of vectors) {
        expect(v.rule.length, v.id).toBeGreaterThan(10);
        expect(ops, v.id).toContain(v.op);
        expect(
          [v.expected !== undefined || v.expected === null, v.throws, v.text].filter(Boolean).length,
        ).toBe(1);
      }
    }
  });

  it('@codeagent/render-intent, @codeagent/terminal, @codeagent/adapter-acp and @codeagent/permission-gate pass in process', async () => {
    expectConforms(await runSuite(renderIntent, { suite: 'render-intent' }), 'in process');
    expectConforms(await runSuite(terminalViews(plainCards), { suite: 'terminal-views' }), 'in process');
    expectConforms(
      await runSuite(inProcess('@codeagent/adapter-acp (mapping)', acpOps), { suite: 'acp-mapping' }),
      'in process',
    );
    expectConforms(
      await runSuite(inProcess('@codeagent/permission-gate (grants)', gateOps), { suite: 'grants' }),
      'in process',
    );
  });

  it('pass through the TypeScript reference host over NDJSON too', async () => {
    const host = await startHost(
      `${process.execPath} ${join(import.meta.dirname, '..', 'hosts', 'typescript', 'host.mjs')}`,
    );
    try {
      for (const { suite } of SUITES)
        expectConforms(await runSuite(host, { suite }), 'NDJSON (TypeScript host)');
    } finally {
      await host.close();
    }
  }, 60_000);
});

describe('the Python reference host (standard library only)', () => {
  // What it does not implement, and why (PROTOCOL.md §6 "Reference hosts"): the gate's decisions on Bash rest on a
  // shell grammar (tree-sitter-bash) the standard library lacks; a regex splitter would pass the vectors and still
  // be unsafe, which is what a reference must not teach.
  const NOT_IMPLEMENTED = new Set(['evaluatePermission', 'grantScope', 'grantSession']);
  it('implements every other operation: presenters (data and built-in), terminal fallback, ACP mapping, cards, skills', async () => {
    const host = await startHost(
      `python3 ${join(import.meta.dirname, '..', 'hosts', 'python', 'codeagent_conformance_host.py')}`,
    );
    try {
      for (const suite of [
        'render-intent',
        'acp-mapping',
        'terminal-views',
        'skills',
        'grants',
        'permission',
      ] as const) {
        const report = await runSuite(host, { suite });
        recordReport(report, 'NDJSON (Python host)');
        expect(report.ok, formatReport(report)).toBe(true);
        for (const r of report.results)
          expect(r.outcome, r.id).toBe(NOT_IMPLEMENTED.has(r.op) ? 'not-applicable' : 'pass');
      }
      const terminal = await runTerminalRendererSuite(host.name, host);
      recordReport(terminal, 'NDJSON (Python host)');
      expect(terminal.ok, formatReport(terminal)).toBe(true);
      // JSON cannot carry a cycle or a throwing getter: those run in process only.
      expect(terminal.counts['not-applicable']).toBe(2);
      expect(terminal.results.find((r) => r.id === 'terminal/robust/deep-payload-10000')?.outcome).toBe(
        'pass',
      );
    } finally {
      await host.close();
    }
  }, 120_000);
});

/** Runs a suite against a broken implementation and returns the failure lines of its report. */
async function failures(impl: Parameters<typeof runSuite>[0], suite: SuiteName): Promise<string> {
  const report = await runSuite(impl, { suite });
  expect(report.ok).toBe(false);
  return formatReport(report);
}

describe('deliberately broken consumers are caught with the vector and the rule', () => {
  it('a presenter that lets a throwing presenter escape, or forgets the orphan guard', async () => {
    // Calls presenters directly: no containment, no schema, no orphan guard.
    const naive = (lookup: ToolPresentationLookup): ToolPresenter => {
      const calls = new Map<string, { args: unknown; name: string }>();
      return {
        call: (id, name, args) => {
          calls.set(id, { args, name });
          return (
            lookup(name)?.presentCall?.(args) ?? {
              card: 'generic',
              title: name,
              kind: 'other',
              rawInput: args,
            }
          );
        },
        result: (id, r) => {
          const c = calls.get(id);
          calls.delete(id);
          const content =
            typeof r.content === 'string' ? [{ type: 'text' as const, text: r.content }] : [...r.content];
          const value = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
          const view = c && lookup(c.name)?.presentResult?.(c.args, { content, value, isError: r.isError });
          return view ?? { card: 'generic', content };
        },
        get pending() {
          return calls.size;
        },
      };
    };
    const text = await failures(
      inProcess('naive presenter', { presentSession: presentSessionOp(naive) }),
      'render-intent',
    );
    expect(text).toMatch(
      /FAIL render-intent\/resolution\/present-call-throws {2}\[CONTRACTS\.md §2: a throwing presenter is contained \(reported, generic fallback\), never a blank card\]\n\s+expected a result, got Error \(no code\): boom/,
    );
    expect(text).toMatch(
      /FAIL render-intent\/resolution\/orphan-terminal-result {2}\[CONTRACTS\.md §2: a terminal result whose call was not terminal -> generic \(orphan guard\)[^\]]*\]\n\s+\$\.views\[1\]: missing key "content"/,
    );
  });

  it('a terminal renderer that keeps colour when it is off, or drops the value fallback', async () => {
    const coloured = await failures(
      terminalViews(
        (input) =>
          'call' in input
            ? renderToolCall(input.call, { color: true, width: 80 })
            : renderToolResult(input.result, input.data ?? {}, { color: true, width: 80 }),
        'always coloured',
      ),
      'terminal-views',
    );
    expect(coloured).toMatch(
      /FAIL terminal-views\/call\/terminal {2}\[CONTRACTS\.md §2 terminal call[^\]]*\]\n\s+colour is off, but the text holds an escape sequence at offset 0/,
    );
    const noFallback = await failures(
      terminalViews(
        (input) =>
          'call' in input ? plainCards(input) : plainCards({ result: input.result, data: { value: '' } }),
        'no value fallback',
      ),
      'terminal-views',
    );
    expect(noFallback).toMatch(
      /FAIL terminal-views\/result\/generic-value-only {2}\[CONTRACTS\.md §1: the portable value is every UI's last fallback\]\n\s+the text does not show "just the value"/,
    );
  });

  it('an ACP mapping that sends relative paths or maps every stop reason to end_turn', async () => {
    const text = await failures(
      inProcess('relative paths', {
        ...acpOps,
        acpToolCall: (id: string, view: ToolCallView, rawInput: unknown, ctx: Ctx) =>
          toolCallNotice(id, view, rawInput, { ...ctx, cwd: '.' }),
        acpStopReason: () => 'end_turn',
      }),
      'acp-mapping',
    );
    expect(text).toMatch(
      /FAIL acp\/call\/diff-call {2}\[CONTRACTS\.md §2 ACP mapping: diff call.*\]\n\s+\$\.content\[0\]\.path: expected "\/w\/a", got "src\/\.\.\/a"/,
    );
    expect(text).toMatch(
      /FAIL acp\/stop-reason\/interrupted {2}\[ADR 0150 \/ ACP session\/prompt stopReason: codeagent interrupted -> cancelled\]\n\s+\$: expected "cancelled", got "end_turn"/,
    );
  });

  it('a gate whose session grants are tool-wide', async () => {
    // "Allow always" remembers the tool name: every later call of the tool is allowed unasked.
    const toolWide = async (
      options: PermissionGateOptions,
      steps: Parameters<typeof gateOps.grantSession>[1],
    ) => {
      const granted = new Set<string>();
      const out: unknown[] = [];
      let mode = options.mode ?? 'default';
      for (const step of steps) {
        if ('configure' in step) {
          mode = step.configure.mode ?? mode;
          continue;
        }
        const e = createPermissionGate({ ...options, mode }).evaluate(step.call.name, step.call.input);
        if (e.decision !== 'ask') {
          out.push({ allowed: e.decision === 'allow', asked: false, source: e.source });
        } else if (granted.has(step.call.name)) {
          out.push({ allowed: true, asked: false, source: { kind: 'grant', scope: 'session' } });
        } else {
          if (step.answer === 'session') granted.add(step.call.name);
          const approved = step.answer !== 'deny';
          out.push({
            allowed: approved,
            asked: true,
            source: approved
              ? { kind: 'ask', outcome: 'approved', scope: step.answer }
              : { kind: 'ask', outcome: 'declined' },
          });
        }
      }
      return { steps: out, grants: [...granted].map((tool) => ({ kind: 'tool', tool })) };
    };
    const text = await failures(
      inProcess('tool-wide grants', { ...gateOps, grantSession: toolWide }),
      'grants',
    );
    expect(text).toMatch(
      /FAIL grants\/session\/ls-does-not-grant-rm {2}\[ADR 0106 scoped session grants: a grant for ls never allows rm -rf \/ \(the reported bug\)\]\n\s+\$\.steps\[1\]\.allowed: expected false, got true/,
    );
  });
});
