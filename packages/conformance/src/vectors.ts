import {
  type ConformanceVector as ArtifactVector,
  vectors as artifactVectors,
} from '@codeagent/artifact-schema/vectors';
import decisions from '@codeagent/permission-gate/vectors/decisions.json' with { type: 'json' };
import argumentVectors from '@codeagent/skills/vectors/arguments.json' with { type: 'json' };
import stopReasons from '@codeagent/render-intent/vectors/stop-reasons.json' with { type: 'json' };
import slashVectors from '@codeagent/skills/vectors/slash-commands.json' with { type: 'json' };
import { acpMappingSuite, grantsSuite, renderIntentSuite, terminalViewsSuite } from './view-vectors.js';

/** The error a throwing vector expects: the error's name and its stable code. */
export interface ExpectedError {
  /** The error's name in the `instanceof` sense, e.g. `TypeError`. */
  readonly name: string;
  /** The stable code the error carries. */
  readonly code: string;
}

/**
 * One conformance case, language-neutral: an operation, its JSON arguments, and either the expected JSON result
 * or the expected error, with the rule it comes from (a CONTRACTS section, a seed section or an ADR).
 */
export interface Vector {
  /** Unique id, `<group>/<case>`. */
  readonly id: string;
  /** Where the rule comes from. */
  readonly rule: string;
  /** The operation (for artifact vectors, a public function of `@codeagent/artifact-schema`). */
  readonly op: string;
  /** The JSON arguments, applied positionally. */
  readonly args: readonly unknown[];
  /** The expected JSON result (absent when the vector expects an error). */
  readonly expected?: unknown;
  /** The expected error (absent when the vector expects a result). */
  readonly throws?: ExpectedError;
  /** For text results (a renderer's output): what must and must not be visible, instead of `expected`. */
  readonly text?: TextExpectation;
}

/** What a text result must show: each `contains` string in order, none of `absent`, and no escape when `plain`. */
export interface TextExpectation {
  /** Strings that must appear, in this order. */
  readonly contains: readonly string[];
  /** Strings that must not appear. */
  readonly absent: readonly string[];
  /** True when the text may hold no escape sequence at all (colour off): no ESC byte. */
  readonly plain: boolean;
}

/** The suites of vectors the kit ships, by name. */
export type SuiteName =
  | 'artifact'
  | 'permission'
  | 'skills'
  | 'render-intent'
  | 'acp-mapping'
  | 'grants'
  | 'terminal-views'
  | 'stop-reasons';

/** The operations of the artifact suite, which a host declares in its hello line. */
export const ARTIFACT_OPS = [
  'toolResultArtifact',
  'toolResultValue',
  'toolResult',
  'adaptToolResult',
  'normalizeToolOutput',
  'escapeHtml',
  'sanitizeTerminalText',
] as const;

/** The artifact protocol's vectors (accessors, version negotiation, adaptation, normalisation, trust boundary). */
export const artifactSuite: readonly Vector[] = Object.freeze(
  artifactVectors.map((v: ArtifactVector): Vector => Object.freeze({ ...v })),
);

/**
 * The operations of the permission suite: `evaluatePermission(options, toolName, input)` answers the gate's
 * `{decision, capability, source}` for one call under the options (mode, policy, rules, toolMeta).
 */
export const PERMISSION_OPS = ['evaluatePermission'] as const;

/** Permission decisions: the mode table, precedence, rules, undeclared tools (`@codeagent/permission-gate` vectors). */
export const permissionSuite: readonly Vector[] = Object.freeze(
  decisions.vectors.map(
    (v): Vector =>
      Object.freeze({
        id: `permission/${v.id}`,
        rule: v.from,
        op: 'evaluatePermission',
        args: [v.options, v.call.name, v.call.input],
        expected: v.expected,
      }),
  ),
);

/** The operations of the skills suite: `substituteArguments(body, args)` and `parseSlashCommand(text)`. */
export const SKILLS_OPS = ['substituteArguments', 'parseSlashCommand'] as const;

/** Skills: argument substitution and slash-command parsing (`@codeagent/skills` vectors). */
export const skillsSuite: readonly Vector[] = Object.freeze([
  ...argumentVectors.vectors.map(
    (v): Vector =>
      Object.freeze({
        id: `skills/arguments/${v.id}`,
        rule: `CONTRACTS §5 loadSkillPrompt substitution (${argumentVectors.source})`,
        op: 'substituteArguments',
        args: [v.body, v.args],
        expected: v.expected,
      }),
  ),
  ...slashVectors.vectors.map(
    (v): Vector =>
      Object.freeze({
        id: `skills/slash/${v.id}`,
        rule: `CONTRACTS §5 parseSlashCommand (${slashVectors.source})`,
        op: 'parseSlashCommand',
        args: [v.input],
        expected: v.expected,
      }),
  ),
]);

/**
 * The operation of the stop-reasons suite: `mapStopReason(facts)` answers the stop reason of a turn from what the loop
 * knows at its end, `facts = {finishReason, failed, aborted, hitMaxTurns, budgetExceeded, unresolvedToolCalls}`
 * (`finishReason`: the AI SDK's unified finish reason of the last step, or null).
 */
export const STOP_REASON_OPS = ['mapStopReason'] as const;

/** The finish-reason -> stop-reason mapping (CONTRACTS §3; `@codeagent/render-intent/vectors/stop-reasons.json`). */
export const stopReasonSuite: readonly Vector[] = Object.freeze(
  stopReasons.vectors.map(
    (v): Vector =>
      Object.freeze({
        id: `stop-reasons/${v.id}`,
        rule: `${v.rule} (from: ${v.from})`,
        op: v.op,
        args: v.args,
        expected: v.expected,
      }),
  ),
);

/** Every suite, by name. */
export const suites: Readonly<Record<SuiteName, readonly Vector[]>> = Object.freeze({
  artifact: artifactSuite,
  permission: permissionSuite,
  skills: skillsSuite,
  'render-intent': renderIntentSuite,
  'acp-mapping': acpMappingSuite,
  grants: grantsSuite,
  'terminal-views': terminalViewsSuite,
  'stop-reasons': stopReasonSuite,
});
