import { resolveCompaction } from './compaction.js';
import { AgentCoreError } from './errors.js';
import { resolveRetry } from './retry.js';
import { tokenThresholds } from './usage.js';
function positiveInt(name, v, dflt, min = 1) {
    if (v === undefined)
        return dflt;
    if (!Number.isInteger(v) || v < min) {
        throw new AgentCoreError('invalid-options', `${name} must be a whole number >= ${min}, got ${String(v)}`);
    }
    return v;
}
function resolveModel(model) {
    if (typeof model === 'object' && model !== null && model.specificationVersion === 'v3')
        return model;
    throw new AgentCoreError('invalid-options', 'model must be an AI SDK 6 provider model object (LanguageModelV3), e.g. from @ai-sdk/openai-compatible');
}
/** Validates {@link CreateClientOptions}; throws {@link AgentCoreError} `invalid-options` naming the option. */
export function resolveClientOptions(options) {
    if (typeof options !== 'object' || options === null) {
        throw new AgentCoreError('invalid-options', 'createClient: expected an options object');
    }
    const model = resolveModel(options.model);
    const cwd = options.cwd ?? process.cwd();
    if (typeof cwd !== 'string' || cwd === '') {
        throw new AgentCoreError('invalid-options', 'cwd must be a non-empty string');
    }
    const maxModelRequests = options.maxModelRequests !== undefined
        ? positiveInt('maxModelRequests', options.maxModelRequests, 100)
        : positiveInt('maxTurns', options.maxTurns, 100);
    const contextWindow = positiveInt('contextWindow', options.contextWindow, 200_000, 1000);
    const maxOutput = positiveInt('maxOutputTokens', options.maxOutputTokens, 32_000);
    const tickMs = positiveInt('tickIntervalMs', options.tickIntervalMs, 100);
    if (options.pricing !== undefined) {
        const { inputPerMillion, outputPerMillion } = options.pricing;
        if (!(Number.isFinite(inputPerMillion) && Number.isFinite(outputPerMillion))) {
            throw new AgentCoreError('invalid-options', 'pricing needs finite inputPerMillion and outputPerMillion');
        }
    }
    const registerTools = options.registerTools ?? true;
    if (!registerTools && (options.toolPolicy !== undefined || options.ask !== undefined)) {
        throw new AgentCoreError('invalid-options', 'toolPolicy and ask configure the default gate of registerTools: true; a harness-only client gets its gate from installPermissionGate(client, ...)');
    }
    return {
        model,
        cwd,
        maxModelRequests,
        contextWindow,
        thresholds: tokenThresholds(contextWindow, maxOutput),
        tickMs,
        system: options.system,
        display: options.display,
        pricing: options.pricing,
        retry: resolveRetry(options.retry),
        compaction: resolveCompaction(options.compaction),
        permissionMode: options.permissionMode ?? 'default',
        registerTools,
    };
}
//# sourceMappingURL=options.js.map