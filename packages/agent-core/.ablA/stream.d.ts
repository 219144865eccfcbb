import { type CodeagentClient } from './client.js';
import { type AgentEvent, type StreamCallbacks, type StreamOptions, type StreamResult } from './events.js';
import type { StreamInput } from './input.js';
import type { CreateClientOptions } from './options.js';
import { type ParseSessionOptions } from './session.js';
/**
 * Runs one turn and delivers its events to typed callbacks. The promise always resolves, also on
 * errors (then with the partial text, `usage: null` and `stopReason: 'error'`, after `onError`).
 */
export declare function stream(client: CodeagentClient, input: StreamInput, callbacks?: StreamCallbacks, options?: StreamOptions): Promise<StreamResult>;
/**
 * Runs one turn and yields its events as a typed union, in the same order the callbacks get them; the
 * last event is `{type: 'end', result}`. Leaving the loop early (break/return) interrupts the turn.
 */
export declare function streamEvents(client: CodeagentClient, input: StreamInput, options?: StreamOptions): AsyncIterable<AgentEvent>;
/**
 * Restores a saved session into a new client built from `options` (the host passes model and tools
 * again). History, tool call ids and provider-facing values are restored exactly; legacy or malformed
 * artifacts are upgraded on the display copy only; session-scoped permission grants are not restored.
 * The session file is untrusted: permission mode and working directory come from `options` (defaults
 * `default` and `process.cwd()`, as for `createClient`), never from the file's `permissionMode` / `cwd`.
 * Throws {@link AgentCoreError} `invalid-session` for bad JSON.
 */
export declare function loadSession(json: unknown, options: CreateClientOptions, parseOptions?: ParseSessionOptions): CodeagentClient;
//# sourceMappingURL=stream.d.ts.map