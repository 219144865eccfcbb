import { PERMISSION_MODES } from '@codeagent/permission-gate';
import { assistantModelMessageSchema, systemModelMessageSchema, toolModelMessageSchema, userModelMessageSchema, } from 'ai';
import { z } from 'zod';
import { COMPACTION_ACTIONS, validateToolPairs } from './compaction.js';
import { AgentCoreError } from './errors.js';
/** The `format` tag of a saved session. */
export const SESSION_FORMAT = 'codeagent.session';
/** The session JSON version this package writes and reads. */
export const SESSION_VERSION = 1;
const nonNegInt = z.number().int().nonnegative();
const droppedSchema = z.union([
    z.object({
        kind: z.literal('tool-result'),
        index: nonNegInt,
        toolCallId: z.string(),
        toolName: z.string(),
        tokens: z.number(),
    }),
    z.object({
        kind: z.literal('message'),
        index: nonNegInt,
        role: z.enum(['system', 'user', 'assistant', 'tool']),
        tokens: z.number(),
        preview: z.string(),
        toolCallIds: z.array(z.string()),
    }),
]);
const decisionSchema = z.object({
    action: z.enum(COMPACTION_ACTIONS),
    reason: z.string(),
    beforeTokens: z.number(),
    afterTokens: z.number(),
    threshold: z.number(),
    dropped: z.array(droppedSchema),
});
const recordSchema = z.object({
    id: z.string().min(1),
    name: z.string().min(1),
    arguments: z.unknown().optional(),
    // Untrusted and possibly legacy: any value; `adaptToolResult` upgrades it on load.
    result: z.unknown().optional(),
    isError: z.boolean(),
    // Cards are recomputed on load by the tools' pure presenters; saved ones are for other readers.
    callView: z.unknown().optional(),
    view: z.unknown().optional(),
});
const sessionSchema = z.object({
    format: z.literal(SESSION_FORMAT),
    version: z.literal(SESSION_VERSION),
    savedAt: z.string(),
    cwd: z.string().min(1),
    permissionMode: z.enum(PERMISSION_MODES),
    // Checked one message at a time below (see validateMessages).
    messages: z.array(z.unknown()),
    toolResults: z.array(recordSchema),
    compactions: z.array(decisionSchema),
    compactionFailures: nonNegInt,
    lastReportedTokens: z.number().nonnegative(),
});
const MESSAGE_SCHEMAS = {
    system: systemModelMessageSchema,
    user: userModelMessageSchema,
    assistant: assistantModelMessageSchema,
    tool: toolModelMessageSchema,
};
/**
 * Validates each message on its own, by its role, against the AI SDK's schema of that role. One parse per
 * message keeps the validator's per-parse state small and short-lived, so loading is linear in the
 * history (one parse of the whole array keeps every message's state alive until it ends).
 */
function validateMessages(messages) {
    for (let i = 0; i < messages.length; i++) {
        const m = messages[i];
        const role = typeof m === 'object' && m !== null ? m.role : undefined;
        const schema = typeof role === 'string' && Object.hasOwn(MESSAGE_SCHEMAS, role)
            ? MESSAGE_SCHEMAS[role]
            : undefined;
        if (!schema)
            throw invalid(`messages.${i}.role: expected one of system, user, assistant, tool`);
        const r = schema.safeParse(m);
        if (!r.success) {
            const issue = r.error.issues[0];
            const path = ['messages', i, ...(issue?.path ?? [])].map(String).join('.');
            throw invalid(`${path}: ${issue?.message ?? 'does not match the schema'}`);
        }
    }
}
/** Measures nesting depth without recursion; returns true when it exceeds `max`. */
function tooDeep(value, max) {
    const stack = [[value, 0]];
    let visited = 0;
    while (stack.length > 0) {
        const [v, d] = stack.pop();
        if (d > max)
            return true;
        if (typeof v !== 'object' || v === null)
            continue;
        if (++visited > 5_000_000)
            return true;
        for (const child of Object.values(v))
            if (typeof child === 'object' && child !== null)
                stack.push([child, d + 1]);
    }
    return false;
}
function invalid(message, cause) {
    return new AgentCoreError('invalid-session', `invalid session: ${message}`, cause === undefined ? {} : { cause });
}
/**
 * Parses and validates untrusted session JSON (a string or an already parsed value). Throws
 * {@link AgentCoreError} `invalid-session` with a message naming the first problem; never anything else.
 * The returned messages are the input's own objects, so the provider-facing history is byte-identical.
 */
export function parseSession(json, options = {}) {
    const maxChars = options.maxChars ?? 64 * 1024 * 1024;
    const maxDepth = options.maxDepth ?? 256;
    let data = json;
    if (typeof json === 'string') {
        if (json.length > maxChars)
            throw invalid(`larger than ${maxChars} characters`);
        try {
            data = JSON.parse(json);
        }
        catch (e) {
            throw invalid(`not JSON (${e instanceof Error ? e.message : String(e)})`);
        }
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
        throw invalid('expected a JSON object');
    const head = data;
    if (head.format !== SESSION_FORMAT)
        throw invalid(`format must be "${SESSION_FORMAT}"`);
    if (head.version !== SESSION_VERSION) {
        throw invalid(typeof head.version === 'number' && head.version > SESSION_VERSION
            ? `version ${head.version} is newer than this package reads (${SESSION_VERSION})`
            : `version must be ${SESSION_VERSION}`);
    }
    if (tooDeep(data, maxDepth))
        throw invalid(`nested deeper than ${maxDepth} levels`);
    let parsed;
    try {
        parsed = sessionSchema.safeParse(data);
    }
    catch (e) {
        throw invalid('could not be validated', e);
    }
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const path = issue?.path.map(String).join('.') || '(root)';
        throw invalid(`${path}: ${issue?.message ?? 'does not match the schema'}`);
    }
    try {
        validateMessages(parsed.data.messages);
    }
    catch (e) {
        if (e instanceof AgentCoreError)
            throw e;
        throw invalid('could not be validated', e);
    }
    // A system message past the start would be an instruction smuggled into history by whoever wrote the file.
    const systemAt = head.messages.findIndex((m, i) => i > 0 && m.role === 'system');
    if (systemAt !== -1) {
        throw invalid(`messages.${systemAt}: a system message is only accepted as the first message`);
    }
    const problems = validateToolPairs(head.messages);
    if (problems.length > 0) {
        const p = problems[0];
        throw invalid(`messages.${p?.index}: ${p?.message}`);
    }
    const ids = new Set();
    for (const r of parsed.data.toolResults) {
        if (ids.has(r.id))
            throw invalid(`toolResults: duplicate id ${JSON.stringify(r.id)}`);
        ids.add(r.id);
    }
    // Keep the caller's own message objects (zod output could reorder or drop keys).
    return {
        ...parsed.data,
        messages: head.messages,
        toolResults: head.toolResults.map((r, i) => ({
            ...parsed.data.toolResults[i],
            arguments: r.arguments,
            result: r.result,
        })),
    };
}
//# sourceMappingURL=session.js.map