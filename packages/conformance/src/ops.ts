import type {
  AskCallback,
  PermissionGate,
  PermissionGateOptions,
  PermissionGateUpdate,
} from '@codeagent/permission-gate';
import type {
  PresenterIssue,
  StandardSchemaV1,
  ToolPresentation,
  ToolPresentationLookup,
  ToolPresenter,
  ToolPresenterOptions,
  ToolResultInput,
} from '@codeagent/render-intent';

/** A presenter's behaviour in a `presentSession` vector (see PROTOCOL.md §4). */
export type Behaviour = 'undefined' | 'echo' | { readonly returns: unknown } | { readonly throws: string };
/** An input schema's behaviour in a `presentSession` vector. */
export type SchemaSpec = 'async' | { readonly requireString: string } | { readonly throws: string };

/** A tool of a `presentSession` vector, as data. */
export interface ToolSpec {
  /** What `presentCall` does. */
  readonly presentCall?: Behaviour;
  /** What `presentResult` does. */
  readonly presentResult?: Behaviour;
  /** What `inputSchema` does. */
  readonly inputSchema?: SchemaSpec;
  /** When true, looking the tool up throws. */
  readonly lookupThrows?: boolean;
}

/** One step of a `presentSession` vector: present a call, or the result of one. */
export type SessionStep =
  | { readonly call: { readonly id: string; readonly name: string; readonly args: unknown } }
  | { readonly result: { readonly id: string } & ToolResultInput };

/** What `presentSession` answers: one view per step, the contained issues' codes in order, and the calls left. */
export interface SessionOutcome {
  /** The view of each step. */
  readonly views: readonly unknown[];
  /** The `code` of each issue the presenter reported. */
  readonly issues: readonly string[];
  /** Calls still waiting for their result. */
  readonly pending: number;
}

function behave(b: Behaviour, echo: (...args: unknown[]) => unknown) {
  return (...args: unknown[]): never => {
    if (b === 'undefined') return undefined as never;
    if (b === 'echo') return echo(...args) as never;
    if ('throws' in b) throw new Error(b.throws);
    return structuredClone(b.returns) as never;
  };
}

function schemaOf(spec: SchemaSpec): StandardSchemaV1<unknown, unknown> {
  const validate = (value: unknown) => {
    if (spec === 'async') return Promise.resolve({ value });
    if ('throws' in spec) throw new Error(spec.throws);
    const arg = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    return typeof arg?.[spec.requireString] === 'string'
      ? { value: { ...arg, checked: true } }
      : { issues: [{ message: `${spec.requireString} must be a string` }] };
  };
  return { '~standard': { version: 1, vendor: 'codeagent-conformance', validate } };
}

/** Builds the tool presentation a {@link ToolSpec} describes. */
function presentationOf(spec: ToolSpec): ToolPresentation {
  const p: ToolPresentation = {};
  if (spec.presentCall)
    p.presentCall = behave(spec.presentCall, (args) => ({
      card: 'generic',
      title: 'echo',
      kind: 'other',
      rawInput: args,
    }));
  if (spec.presentResult)
    p.presentResult = behave(spec.presentResult, (args, r) => {
      const { value, isError, meta } = r as { value: string; isError: boolean; meta?: unknown };
      const text = JSON.stringify({ args, value, isError, ...(meta === undefined ? {} : { meta }) });
      return { card: 'generic', title: 'echo', content: [{ type: 'text', text }] };
    });
  if (spec.inputSchema) p.inputSchema = schemaOf(spec.inputSchema);
  return p;
}

/**
 * The `presentSession` operation for a presenter factory with the shape of render-intent's `createToolPresenter`:
 * builds the vector's tools from data, runs its steps on one presenter, and answers the views, issue codes and
 * calls left pending.
 */
export function presentSessionOp(
  createPresenter: (lookup: ToolPresentationLookup, options: ToolPresenterOptions) => ToolPresenter,
): (tools: Readonly<Record<string, ToolSpec>>, steps: readonly SessionStep[]) => SessionOutcome {
  return (tools, steps) => {
    const issues: PresenterIssue[] = [];
    const presenter = createPresenter(
      (name) => {
        const spec = Object.hasOwn(tools, name) ? tools[name] : undefined;
        if (spec?.lookupThrows) throw new Error(`lookup ${name}`);
        return spec && presentationOf(spec);
      },
      { onError: (issue) => issues.push(issue) },
    );
    const views = steps.map((step) =>
      'call' in step
        ? presenter.call(step.call.id, step.call.name, step.call.args)
        : presenter.result(step.result.id, step.result),
    );
    return { views, issues: issues.map((i) => i.code), pending: presenter.pending };
  };
}

/** One step of a `grantSession` vector: a call and the ask callback's answer to it, or a mode change. */
export type GrantStep =
  | {
      readonly call: { readonly name: string; readonly input: unknown };
      readonly answer: 'session' | 'once' | 'deny';
    }
  | { readonly configure: PermissionGateUpdate };

/** What `grantSession` answers: per call, whether it was allowed and asked and the decision's source; the grants. */
export interface GrantOutcome {
  /** One entry per call step. */
  readonly steps: readonly { allowed: boolean; asked: boolean; source: unknown }[];
  /** The grants the gate keeps at the end, oldest first, without their ids. */
  readonly grants: readonly unknown[];
}

/**
 * The `grantSession` operation for a gate factory with the shape of permission-gate's `createPermissionGate`: one
 * gate, whose ask callback answers each call as the step says (`session` = a session grant, `once` = true, `deny` =
 * false), and records whether it was asked.
 */
export function grantSessionOp(
  createGate: (options: PermissionGateOptions) => PermissionGate,
): (options: PermissionGateOptions, steps: readonly GrantStep[]) => Promise<GrantOutcome> {
  return async (options, steps) => {
    let answer: 'session' | 'once' | 'deny' = 'deny';
    let asked = false;
    const ask: AskCallback = () => {
      asked = true;
      return answer === 'session' ? { allow: true, scope: 'session' } : answer === 'once';
    };
    const gate = createGate({ ...options, ask });
    const out: { allowed: boolean; asked: boolean; source: unknown }[] = [];
    for (const [i, step] of steps.entries()) {
      if ('configure' in step) {
        gate.configure(step.configure);
        continue;
      }
      answer = step.answer;
      asked = false;
      const r = await gate.check({ id: `call_${i}`, ...step.call });
      const { id: _id, ...source } = r.source as { id?: string };
      out.push({ allowed: r.allowed, asked, source });
    }
    return { steps: out, grants: gate.grants().map(({ id: _id, ...grant }) => grant) };
  };
}
