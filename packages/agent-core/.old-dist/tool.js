import { isPlainObject } from '@codeagent/artifact-schema/internal';
import { isCapability } from '@codeagent/permission-gate';
import { asSchema, jsonSchema } from 'ai';
import { AgentCoreError } from './errors.js';
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** The argument every tool accepts in addition to its own: a short model-written reason for the call. */
export const INTENT_ARGUMENT = '_intent';
/** Validates a tool definition and returns it frozen; throws {@link AgentCoreError} `invalid-tool`. */
export function defineTool(tool) {
    const t = tool;
    const fail = (why) => {
        throw new AgentCoreError('invalid-tool', `defineTool(${JSON.stringify(String(t?.name))}): ${why}`);
    };
    if (typeof t !== 'object' || t === null)
        throw new AgentCoreError('invalid-tool', 'defineTool: expected an object');
    if (typeof t.name !== 'string' || !TOOL_NAME.test(t.name)) {
        fail('name must be 1-64 characters of letters, digits, "_" or "-"');
    }
    if (typeof t.description !== 'string')
        fail('description must be a string');
    if (typeof t.execute !== 'function')
        fail('execute must be a function');
    if (t.inputSchema === null || (typeof t.inputSchema !== 'object' && typeof t.inputSchema !== 'function')) {
        fail('inputSchema must be a zod schema, a Standard Schema or an AI SDK schema');
    }
    const cap = t.capability;
    const capName = typeof cap === 'object' && cap !== null ? cap.capability : cap;
    if (typeof capName !== 'string' || !isCapability(capName)) {
        fail(`capability must be one of read, write, exec, net (got ${JSON.stringify(capName) ?? String(capName)})`);
    }
    for (const k of ['precheck', 'presentCall', 'presentResult']) {
        if (t[k] !== undefined && typeof t[k] !== 'function')
            fail(`${k} must be a function when given`);
    }
    return Object.freeze({ ...tool });
}
/** Splits `_intent` off a tool input: `{intent, args}` where `args` no longer has the key. */
export function splitIntent(input) {
    if (!isPlainObject(input) || !(INTENT_ARGUMENT in input))
        return { intent: null, args: input };
    const { [INTENT_ARGUMENT]: intent, ...args } = input;
    return { intent: typeof intent === 'string' ? intent : null, args };
}
function withIntentProperty(schema) {
    if (schema.type !== 'object' && schema.properties === undefined)
        return schema;
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
/**
 * Extends a tool's input schema with the optional `_intent` string: the JSON Schema sent to the model
 * gets the property, validation runs the tool's own schema on the input without `_intent` and puts a
 * string `_intent` back (so the history keeps what the model wrote); a non-string `_intent` is dropped.
 */
export function intentSchema(inputSchema) {
    const base = asSchema(inputSchema);
    let cached;
    return jsonSchema(() => {
        cached ??= Promise.resolve(base.jsonSchema).then((s) => withIntentProperty(s));
        return cached;
    }, {
        validate: async (value) => {
            const { intent, args } = splitIntent(value);
            const r = base.validate ? await base.validate(args) : { success: true, value: args };
            if (!r.success)
                return r;
            if (intent !== null && isPlainObject(r.value)) {
                return { success: true, value: { ...r.value, [INTENT_ARGUMENT]: intent } };
            }
            return r;
        },
    });
}
/** Key under `extra.codeagent` where a tool leaves presentation meta for its `presentResult`. */
export const PRESENTATION_META_KEY = 'meta';
/** Returns a copy of `result` carrying presentation meta (persisted with the session, read by `presentResult`). */
export function withPresentationMeta(result, meta) {
    return {
        ...result,
        extra: { ...result.extra, codeagent: { ...result.extra.codeagent, [PRESENTATION_META_KEY]: meta } },
    };
}
/** Reads the presentation meta of a result (untrusted: presenters narrow it). */
export function presentationMeta(result) {
    const codeagent = result.extra?.codeagent;
    return codeagent?.[PRESENTATION_META_KEY];
}
//# sourceMappingURL=tool.js.map