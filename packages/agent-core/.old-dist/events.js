import { assertNever } from '@codeagent/render-intent';
/** The `type` tags of {@link AgentEvent}, in a stable order. */
export const AGENT_EVENT_TYPES = Object.freeze([
    'delta',
    'thinking',
    'tool-request',
    'tool-output',
    'tool-result',
    'error',
    'usage',
    'tick',
    'compaction',
    'end',
]);
/** Delivers one event to the matching callback (`end` has none: it is the promise's value). */
export function dispatchToCallbacks(callbacks, event) {
    switch (event.type) {
        case 'delta':
            callbacks.onDelta?.(event.text);
            return;
        case 'thinking':
            callbacks.onThinking?.(event.text);
            return;
        case 'tool-request':
            callbacks.onToolRequest?.({
                id: event.id,
                name: event.name,
                arguments: event.arguments,
                intent: event.intent,
                view: event.view,
            });
            return;
        case 'tool-output':
            callbacks.onToolOutput?.({ id: event.id, name: event.name, stream: event.stream, text: event.text });
            return;
        case 'tool-result':
            callbacks.onToolResult?.({
                id: event.id,
                name: event.name,
                display: event.display,
                value: event.value,
                isError: event.isError,
                artifact: event.artifact,
                view: event.view,
            });
            return;
        case 'error':
            callbacks.onError?.(event.message, event.recovered);
            return;
        case 'usage':
            callbacks.onUsage?.(event.usage);
            return;
        case 'tick':
            callbacks.onTick?.();
            return;
        case 'compaction':
            callbacks.onCompaction?.(event.decision);
            return;
        case 'end':
            return;
        default:
            assertNever(event, 'dispatchToCallbacks');
    }
}
//# sourceMappingURL=events.js.map