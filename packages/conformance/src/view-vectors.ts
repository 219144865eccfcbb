import decisionsGrants from '@codeagent/permission-gate/vectors/grants.json' with { type: 'json' };
import builtinFixtures from '@codeagent/render-intent/fixtures/builtin-tools.json' with { type: 'json' };
import acpMapping from '@codeagent/render-intent/vectors/acp-mapping.json' with { type: 'json' };
import resolution from '@codeagent/render-intent/vectors/resolution.json' with { type: 'json' };
import fallback from '@codeagent/render-intent/vectors/terminal-fallback.json' with { type: 'json' };
import views from '@codeagent/terminal/vectors/views.json' with { type: 'json' };
import type { Vector } from './vectors.js';

/**
 * The operations of the render-intent suite: `presentSession(tools, steps)` runs a session of calls and results
 * through the presenter (tools described as data, see PROTOCOL.md) and answers `{views, issues, pending}`;
 * `terminalFallbackText(output)`; `presentBuiltin(cwd, tool, args, result)` answers the built-in presenters'
 * `{call, result}` views.
 */
export const RENDER_INTENT_OPS = ['presentSession', 'terminalFallbackText', 'presentBuiltin'] as const;

interface SessionStep {
  readonly call?: unknown;
  readonly result?: unknown;
  readonly expected: unknown;
}

/** Render-intent resolution, terminal fallback and the built-in presenters (`@codeagent/render-intent` vectors). */
export const renderIntentSuite: readonly Vector[] = Object.freeze([
  ...resolution.vectors.map((v) => {
    const steps = v.steps as readonly SessionStep[];
    return Object.freeze({
      id: `render-intent/resolution/${v.id}`,
      rule: v.rule,
      op: 'presentSession',
      args: [v.tools, steps.map(({ expected: _, ...step }) => step)],
      expected: { views: steps.map((s) => s.expected), issues: v.issues, pending: v.pending },
    });
  }),
  ...fallback.vectors.map((v) =>
    Object.freeze({
      id: `render-intent/terminal-fallback/${v.id}`,
      rule: v.rule,
      op: 'terminalFallbackText',
      args: [v.input],
      expected: v.expected,
    }),
  ),
  ...builtinFixtures.cases.map((c) =>
    Object.freeze({
      id: `render-intent/builtin/${c.id}`,
      rule: c.source,
      op: 'presentBuiltin',
      args: [c.cwd, c.tool, c.args, c.result],
      expected: c.expected,
    }),
  ),
]);

/**
 * The operations of the ACP mapping suite: `acpToolCall(callId, callView, rawInput, {cwd, terminalOutput})` answers
 * the `tool_call` session update, `acpToolResult(callId, callView | null, resultView, isError, {cwd,
 * terminalOutput})` the `tool_call_update` updates in order, `acpStopReason(stopReason)` the ACP stop reason or null.
 */
export const ACP_MAPPING_OPS = ['acpToolCall', 'acpToolResult', 'acpStopReason'] as const;

/** Render-intent views to ACP updates and stop reasons to ACP (CONTRACTS §2 "ACP mapping"). */
export const acpMappingSuite: readonly Vector[] = Object.freeze(
  acpMapping.vectors.map((v) => Object.freeze({ ...v, id: `acp/${v.id}` })),
);

/**
 * The operations of the grants suite: `grantScope(options, name, input)` answers the scope a session approval would
 * grant (or null); `grantSession(options, steps)` runs calls on one gate whose ask callback answers each step's
 * `answer` and reports `{steps: [{allowed, asked, source}], grants}`.
 */
export const GRANT_OPS = ['grantScope', 'grantSession'] as const;

/** Scoped session grants: Bash prefixes, exact commands, paths, never tool-wide for those, rules and modes. */
export const grantsSuite: readonly Vector[] = Object.freeze(
  decisionsGrants.vectors.map((v) => Object.freeze({ ...v, id: `grants/${v.id}` })),
);

/** The operation of the terminal-views suite: `renderTerminalView({call} | {result, data?})` with colour off. */
export const TERMINAL_VIEW_OP = 'renderTerminalView';

/** Every render-intent card, call and result, drawn with colour off; unknown cards are errors. */
export const terminalViewsSuite: readonly Vector[] = Object.freeze(
  views.vectors.map((v) =>
    Object.freeze({
      id: `terminal-views/${v.id}`,
      rule: v.rule,
      op: TERMINAL_VIEW_OP,
      args: [v.input],
      ...('throws' in v && v.throws
        ? { throws: v.throws }
        : {
            text: {
              contains: v.contains ?? [],
              absent: ('absent' in v ? v.absent : undefined) ?? [],
              plain: true,
            },
          }),
    }),
  ),
);
