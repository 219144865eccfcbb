import type { FlexibleSchema, Schema } from '@ai-sdk/provider-utils';
import type { ToolResult } from '@codeagent/artifact-schema';
import { isPlainObject } from '@codeagent/artifact-schema/internal';
import { isCapability, type ToolMeta } from '@codeagent/permission-gate';
import type { PresentResultInput, ToolCallView, ToolResultView } from '@codeagent/render-intent';
import { asSchema, jsonSchema } from 'ai';
import { AgentCoreError } from './errors.js';
import type { ToolOutputChunk } from './tool-output.js';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** The tool call id (the same id the events and the ask callback carry). */
  readonly callId: string;
  /** The tool name. */
  readonly name: string;
  /** Aborted when the turn is interrupted. */
  readonly signal: AbortSignal;
  /** The client's working directory. */
  readonly cwd: string;
  /** The model-written reason for the call (`_intent`), or `null`. */
  readonly intent: string | null;
  /**
   * Reports output while the call runs (`{stream: 'stdout' | 'stderr', text}`), shown live by hosts as
   * `tool-output` events; the model still sees only what `execute` returns. agent-core always passes it to
   * `execute` (a no-op when nobody listens, ignored after the call ended or was aborted); it is absent in
   * `precheck` and optional for hosts that call a tool directly, so call it as `ctx.output?.(chunk)`.
   */
  readonly output?: (chunk: ToolOutputChunk) => void;
}

/** Capability of a tool for the permission gate: a capability name or full metadata. */
export type ToolCapability = ToolMeta['capability'] | ToolMeta;

/** A tool the agent loop can call (see {@link defineTool}). */
export interface AgentTool<Args = unknown> {
  /** Name the model calls the tool by: 1-64 characters of letters, digits, `_` and `-`. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** Input schema: zod, any Standard Schema with JSON Schema support, or an AI SDK `jsonSchema()`. */
  readonly inputSchema: FlexibleSchema<Args>;
  /** What the tool can do, for the permission gate (`read`, `write`, `exec`, `net`). */
  readonly capability: ToolCapability;
  /** Runs the tool; may return anything `normalizeToolOutput` accepts (string, ToolResult, rows, JSON). */
  execute(args: Args, ctx: ToolContext): unknown;
  /**
   * Optional read-only check, run after the tool request when the permission gate would ask (or when there is no
   * gate): a value other than `undefined` ends the call with it (normalised like `execute`'s output and marked
   * as an error) and the user is never asked; `undefined` lets the gate decide. For a call known to fail (an
   * Edit whose `old_string` occurs twice), so the user is not asked to approve a change that cannot happen.
   * Not run for calls the gate denies or allows without asking.
   */
  precheck?(args: Args, ctx: ToolContext): unknown;
  /** Pure: maps validated args to the call's card. */
  presentCall?(args: Args): ToolCallView | undefined;
  /** Pure: maps args and the model-facing result to the result's card. */
  presentResult?(args: Args, result: PresentResultInput): ToolResultView | undefined;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The argument every tool accepts in addition to its own: a short model-written reason for the call. */
export const INTENT_ARGUMENT = '_intent';

/** Validates a tool definition and returns it frozen; throws {@link AgentCoreError} `invalid-tool`. */
export function defineTool<Args>(tool: AgentTool<Args>): AgentTool<Args> {
  const t = tool as Partial<AgentTool<Args>> | null;
  const fail = (why: string): never => {
    throw new AgentCoreError('invalid-tool', `defineTool(${JSON.stringify(String(t?.name))}): ${why}`);
  };
  if (typeof t !== 'object' || t === null)
    throw new AgentCoreError('invalid-tool', 'defineTool: expected an object');
  if (typeof t.name !== 'string' || !TOOL_NAME.test(t.name)) {
    fail('name must be 1-64 characters of letters, digits, "_" or "-"');
  }
  if (typeof t.description !== 'string') fail('description must be a string');
  if (typeof t.execute !== 'function') fail('execute must be a function');
  if (t.inputSchema === null || (typeof t.inputSchema !== 'object' && typeof t.inputSchema !== 'function')) {
    fail('inputSchema must be a zod schema, a Standard Schema or an AI SDK schema');
  }
  const cap = t.capability;
  const capName = typeof cap === 'object' && cap !== null ? (cap as ToolMeta).capability : cap;
  if (typeof capName !== 'string' || !isCapability(capName)) {
    fail(
      `capability must be one of read, write, exec, net (got ${JSON.stringify(capName) ?? String(capName)})`,
    );
  }
  for (const k of ['precheck', 'presentCall', 'presentResult'] as const) {
    if (t[k] !== undefined && typeof t[k] !== 'function') fail(`${k} must be a function when given`);
  }
  return Object.freeze({ ...tool });
}

/** Splits `_intent` off a tool input: `{intent, args}` where `args` no longer has the key. */
export function splitIntent(input: unknown): { intent: string | null; args: unknown } {
  if (!isPlainObject(input) || !(INTENT_ARGUMENT in input)) return { intent: null, args: input };
  const { [INTENT_ARGUMENT]: intent, ...args } = input;
  return { intent: typeof intent === 'string' ? intent : null, args };
}

type JsonSchemaObject = { type?: unknown; properties?: Record<string, unknown>; [k: string]: unknown };

function withIntentProperty(schema: JsonSchemaObject): JsonSchemaObject {
  if (schema.type !== 'object' && schema.properties === undefined) return schema;
  return {
    ...schema,
    properties: {
      ...(schema.properties ?? {}),
      [INTENT_ARGUMENT]: {
        type: 'string',
        description: 'Optional: one short sentence telling the user why you make this call.',
      },
    },
  };
}

type Validation = Awaited<ReturnType<NonNullable<Schema<unknown>['validate']>>>;

const isPromiseLike = (x: unknown): x is PromiseLike<Validation> =>
  typeof x === 'object' && x !== null && typeof (x as { then?: unknown }).then === 'function';

/** A successful validation with a string `_intent` put back on an object value. */
function withIntent(r: Validation, intent: string | null): Validation {
  if (!r.success || intent === null || !isPlainObject(r.value)) return r;
  return { success: true, value: { ...r.value, [INTENT_ARGUMENT]: intent } };
}

/**
 * Extends a tool's input schema with the optional `_intent` string: the JSON Schema sent to the model
 * gets the property, validation runs the tool's own schema on the input without `_intent` and puts a
 * string `_intent` back (so the history keeps what the model wrote); a non-string `_intent` is dropped.
 */
export function intentSchema(inputSchema: FlexibleSchema<unknown>): Schema<unknown> {
  const base = asSchema(inputSchema);
  let cached: Promise<JsonSchemaObject> | undefined;
  return jsonSchema<unknown>(
    () => {
      cached ??= Promise.resolve(base.jsonSchema).then((s) => withIntentProperty(s as JsonSchemaObject));
      return cached as never;
    },
    {
      // Not async: without `_intent` the tool's own validation result is handed through as it is (one promise
      // less per call on the hot path).
      validate: (value) => {
        const { intent, args } = splitIntent(value);
        if (!base.validate) return withIntent({ success: true, value: args }, intent);
        const r = base.validate(args);
        if (intent === null) return r;
        return isPromiseLike(r)
          ? Promise.resolve(r).then((x) => withIntent(x, intent))
          : withIntent(r, intent);
      },
    },
  );
}

/** Key under `extra.codeagent` where a tool leaves presentation meta for its `presentResult`. */
export const PRESENTATION_META_KEY = 'meta';

/** Returns a copy of `result` carrying presentation meta (persisted with the session, read by `presentResult`). */
export function withPresentationMeta(result: ToolResult, meta: unknown): ToolResult {
  return {
    ...result,
    extra: { ...result.extra, codeagent: { ...result.extra.codeagent, [PRESENTATION_META_KEY]: meta } },
  };
}

/** Reads the presentation meta of a result (untrusted: presenters narrow it). */
export function presentationMeta(result: ToolResult): unknown {
  const codeagent = result.extra?.codeagent as Record<string, unknown> | undefined;
  return codeagent?.[PRESENTATION_META_KEY];
}
