import { createToolMetaRegistry } from '@codeagent/permission-gate';
/** Process-wide host classification of tools, applied to every client's gate (built-ins stay locked). */
export const globalToolMeta = createToolMetaRegistry();
/**
 * Classifies a host tool for every client's permission gate (`read`, `write`, `exec`, `net`, or full
 * metadata); it takes precedence over the capability the tool declared. Built-in tool metadata cannot be
 * changed (throws). Tool metadata is classification, not state: it is the only thing clients share.
 */
export function registerToolMeta(name, meta) {
    globalToolMeta.register(name, meta);
}
//# sourceMappingURL=tool-meta.js.map