import type { GrantScope } from './grants.js';

/** What a tool can do; the gate's unit of classification. */
export type Capability = 'read' | 'write' | 'exec' | 'net';

/** Permission modes, spelled as on the wire (seed 002). */
export type PermissionMode = 'default' | 'plan' | 'accept_edits' | 'bypass' | 'dont_ask';

/** The three outcomes of a gate evaluation. */
export type Decision = 'allow' | 'ask' | 'deny';

/** The rule lists a rule can belong to. */
export type RuleList = Decision;

/** All capabilities, in a stable order. */
export const CAPABILITIES: readonly Capability[] = Object.freeze(['read', 'write', 'exec', 'net']);

/** All permission modes, in a stable order. */
export const PERMISSION_MODES: readonly PermissionMode[] = Object.freeze([
  'default',
  'plan',
  'accept_edits',
  'bypass',
  'dont_ask',
]);

/** All decisions, from least to most restrictive. */
export const DECISIONS: readonly Decision[] = Object.freeze(['allow', 'ask', 'deny']);

/** Rules in the settings-file shape: each entry is `Tool` or `Tool(pattern)`. */
export interface PermissionRules {
  /** Rules that allow a matching call (only lift an `ask`; never a mode's `deny`). */
  readonly allow?: readonly string[];
  /** Rules that force a matching call to ask. */
  readonly ask?: readonly string[];
  /** Rules that deny a matching call. */
  readonly deny?: readonly string[];
}

/** The seed's tool policy: enabled tool sets, per-capability and per-tool decisions. */
export interface ToolPolicy {
  /** When given, only tools in these sets (or without a set) are enabled; others are denied. */
  readonly sets?: readonly string[];
  /** A decision per capability; beats rules and the mode. */
  readonly capabilities?: Readonly<Partial<Record<Capability, Decision>>>;
  /** A decision per tool name; beats everything except disabled sets. */
  readonly overrides?: Readonly<Record<string, Decision>>;
}

/** Metadata the gate knows about one tool. */
export interface ToolMeta {
  /** The tool's capability. */
  readonly capability: Capability;
  /** The tool set it belongs to, checked against `policy.sets`. */
  readonly set?: string;
  /** The input key whose value rule patterns match; default: the first string among the primary keys. */
  readonly primaryArgument?: string;
}

/** Where an evaluation's decision came from. */
export type DecisionSource =
  | {
      /** The tool's set is not in `policy.sets`. */
      readonly kind: 'set';
      /** The disabled set. */
      readonly set: string;
    }
  | {
      /** A per-tool `policy.overrides` entry decided. */
      readonly kind: 'override';
      /** The overridden tool. */
      readonly tool: string;
    }
  | {
      /** A per-capability `policy.capabilities` entry decided. */
      readonly kind: 'capability';
      /** The capability whose policy decided. */
      readonly capability: Capability;
    }
  | {
      /** A rule decided. */
      readonly kind: 'rule';
      /** The rule text. */
      readonly rule: string;
      /** The list the rule is in. */
      readonly list: RuleList;
      /**
       * Set when the command could not be analysed (a non-literal command word, a parse error, the grammar not
       * loaded): the rule may apply, so the gate asks (ADR 0100).
       */
      readonly unanalysable?: string;
    }
  | {
      /** The mode table decided. */
      readonly kind: 'mode';
      /** The mode in force. */
      readonly mode: PermissionMode;
    }
  | {
      /** A write to the agent's own configuration: asks (or denies in plan / dont_ask) whatever else says. */
      readonly kind: 'protected';
      /** The path argument as the call gave it. */
      readonly path: string;
      /** The protected-path entry it matched. */
      readonly entry: string;
    }
  | {
      /** Deciding failed; the gate denied (fail closed). */
      readonly kind: 'error';
      /** What went wrong. */
      readonly message: string;
    };

/** The synchronous result of `gate.evaluate`: a decision with its provenance. */
export interface Evaluation {
  /** What the gate decided. */
  readonly decision: Decision;
  /** The capability the tool was classified as. */
  readonly capability: Capability;
  /** Which set / override / capability policy / rule / mode decided (or the internal error). */
  readonly source: DecisionSource;
  /** The rule text, present when a rule decided. */
  readonly rule?: string;
}

/** A grant an ask callback may return instead of `true`. */
export interface AskGrant {
  /** Must be literally `true` to allow. */
  readonly allow: true;
  /**
   * `once` allows this call; `session` also allows later calls in the call's grant scope (a command prefix, a
   * path, or the tool) that the mode would ask for; never past an ask or deny rule or a protected path.
   */
  readonly scope: 'once' | 'session';
}

/** What an ask callback may resolve to; anything else (including `"yes"`) denies. */
export type AskResult = boolean | AskGrant;

/** What the gate tells the ask callback about the call it asks for. */
export interface AskContext {
  /** Why the call asks, as `describeEvaluation` words it. */
  readonly reason: string;
  /** Which rule / policy / mode / protected path made it ask. */
  readonly source: DecisionSource;
  /**
   * What a `session` answer would grant, or `null` when it would count as `once` (the call asks every time, or
   * its input cannot be scoped safely). Show it next to the "always" choice so the user approves what runs.
   */
  readonly grantScope: GrantScope | null;
}

/**
 * The host's approval callback: called for `ask` decisions with the tool name, its input, the call id and a
 * context saying why it asks and what a session grant would cover.
 */
export type AskCallback = (
  name: string,
  input: unknown,
  id: string | undefined,
  context: AskContext,
) => AskResult | PromiseLike<AskResult>;

/** Where a `gate.check` outcome came from: an evaluation source, the ask callback, or a grant. */
export type CheckSource =
  | DecisionSource
  | {
      /** The host's ask callback decided. */
      readonly kind: 'ask';
      /** How the ask round ended. */
      readonly outcome: AskOutcome;
      /** The grant's scope, when approved. */
      readonly scope?: 'once' | 'session';
    }
  | {
      /** An earlier session grant allowed the call without asking. */
      readonly kind: 'grant';
      /** Always `session`. */
      readonly scope: 'session';
      /** The id of the grant that allowed it (see `gate.grants()`). */
      readonly id: string;
    };

/** How an ask round ended. */
export type AskOutcome =
  | 'approved'
  | 'declined'
  | 'invalid'
  | 'threw'
  | 'timeout'
  | 'aborted'
  | 'no-callback';

/** The part of the standard `AbortSignal` the gate uses (declared here so the package needs no DOM or Node types). */
export interface AbortSignalLike {
  /** True once aborted. */
  readonly aborted: boolean;
  /** Registers an abort listener. */
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  /** Removes an abort listener. */
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** One tool call presented to `gate.check`. */
export interface CheckRequest {
  /** The tool call id, passed to the ask callback. */
  readonly id?: string;
  /** The tool name. */
  readonly name: string;
  /** The tool input as the model sent it. */
  readonly input: unknown;
  /** Aborting denies a pending ask. */
  readonly signal?: AbortSignalLike;
  /**
   * The user's answer to an earlier ask about this very call (a parked turn continued from storage): when the call
   * still asks, it is read like the ask callback's value instead of asking again. It only answers an `ask`: a call
   * that is denied now (a deny rule, a mode switched since) stays denied, and one allowed now runs. Read as strictly
   * as a callback's value: only `true` or `{allow: true, scope}` allows, and a `session` scope grants only what a
   * live ask would have granted.
   */
  readonly answer?: AskResult;
}

/** The asynchronous result of `gate.check`. */
export interface CheckResult {
  /** Whether the tool may run. */
  readonly allowed: boolean;
  /** A one-line human reason (used in `Permission denied for <name> (<reason>)`). */
  readonly reason: string;
  /** Where the outcome came from. */
  readonly source: CheckSource;
}
