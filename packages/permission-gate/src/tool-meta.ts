import { describeValue, PermissionGateError, quote } from './errors.js';
import { CAPABILITIES, type Capability, type ToolMeta } from './types.js';

/** What `registerToolMeta` accepts: a capability, or full metadata. */
export type ToolMetaInput = Capability | ToolMeta;

/**
 * Names of the tools whose metadata the gate locks: the coding tools of `@codeagent/tools`, `use_skill` of
 * `@codeagent/skills`, and `WebFetch`, a reserved name (no package implements it; a host tool of that name is
 * `net` and cannot be downgraded; the conformance vectors use it as the `net` tool).
 */
export type LockedToolName =
  | 'Read'
  | 'Write'
  | 'Edit'
  | 'Glob'
  | 'Grep'
  | 'Bash'
  | 'TodoWrite'
  | 'job_output'
  | 'job_kill'
  | 'use_skill'
  | 'WebFetch';

/**
 * The one table of permission facts about the built-in tools (capability, tool set, the argument rule
 * patterns match); authoritative, a host cannot change it. `@codeagent/tools` declares its tools from it.
 * Glob and Grep leave the primary argument to the default order (`path` when given, else `pattern`).
 */
export const BUILTIN_TOOL_META: Readonly<Record<LockedToolName, ToolMeta>> = Object.freeze({
  Read: Object.freeze({ capability: 'read', set: 'files', primaryArgument: 'file_path' }),
  Write: Object.freeze({ capability: 'write', set: 'files', primaryArgument: 'file_path' }),
  Edit: Object.freeze({ capability: 'write', set: 'files', primaryArgument: 'file_path' }),
  Glob: Object.freeze({ capability: 'read', set: 'files' }),
  Grep: Object.freeze({ capability: 'read', set: 'files' }),
  Bash: Object.freeze({ capability: 'exec', set: 'shell', primaryArgument: 'command' }),
  TodoWrite: Object.freeze({ capability: 'read', set: 'todo' }),
  job_output: Object.freeze({ capability: 'read', set: 'shell', primaryArgument: 'job_id' }),
  job_kill: Object.freeze({ capability: 'exec', set: 'shell', primaryArgument: 'job_id' }),
  use_skill: Object.freeze({ capability: 'read', set: 'skills' }),
  WebFetch: Object.freeze({ capability: 'net', set: 'web', primaryArgument: 'url' }),
} satisfies Record<LockedToolName, ToolMeta>);

/** True when `value` is one of the four capabilities. */
export function isCapability(value: unknown): value is Capability {
  return typeof value === 'string' && (CAPABILITIES as readonly string[]).includes(value);
}

/** Checks one metadata value; returns the normalised metadata or an error message. */
export function safeToolMeta(value: unknown): { ok: true; meta: ToolMeta } | { ok: false; error: string } {
  if (isCapability(value)) return { ok: true, meta: { capability: value } };
  if (typeof value === 'string') return { ok: false, error: `unknown capability ${quote(value)}` };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      error: `expected a capability or {capability, set?, primaryArgument?}, got ${describeValue(value)}`,
    };
  }
  const rec = value as Record<string, unknown>;
  const cap = rec.capability;
  if (!isCapability(cap)) return { ok: false, error: `unknown capability ${describeValue(cap)}` };
  const set = rec.set;
  if (set !== undefined && (typeof set !== 'string' || set === '')) {
    return { ok: false, error: `set must be a non-empty string, got ${describeValue(set)}` };
  }
  const primary = rec.primaryArgument;
  if (primary !== undefined && (typeof primary !== 'string' || primary === '')) {
    return { ok: false, error: `primaryArgument must be a non-empty string, got ${describeValue(primary)}` };
  }
  return {
    ok: true,
    meta: Object.freeze({
      capability: cap,
      ...(set !== undefined ? { set } : {}),
      ...(primary !== undefined ? { primaryArgument: primary } : {}),
    }),
  };
}

/** A tool-metadata registry owned by one gate (or shared on purpose); no process-global state. */
export interface ToolMetaRegistry {
  /** Classifies a host tool; throws `builtin-meta-locked` when it would change a built-in tool's capability. */
  register(name: string, meta: ToolMetaInput): void;
  /** The metadata of a tool: built-in first, then host-registered; `undefined` for undeclared tools. */
  get(name: string): ToolMeta | undefined;
  /** True when the tool is built-in (its metadata cannot be changed). */
  isBuiltin(name: string): boolean;
  /** A snapshot of every host-registered tool's metadata. */
  entries(): ReadonlyArray<readonly [string, ToolMeta]>;
}

/** Creates an empty tool-metadata registry (built-ins are always present and locked). */
export function createToolMetaRegistry(initial?: Readonly<Record<string, ToolMetaInput>>): ToolMetaRegistry {
  const own = new Map<string, ToolMeta>();
  const registry: ToolMetaRegistry = {
    register(name, input) {
      if (typeof name !== 'string' || name === '') {
        throw new PermissionGateError(
          'invalid-tool-meta',
          `tool name must be a non-empty string, got ${describeValue(name)}`,
        );
      }
      const r = safeToolMeta(input);
      if (!r.ok) throw new PermissionGateError('invalid-tool-meta', `toolMeta.${name}: ${r.error}`);
      const builtin = Object.hasOwn(BUILTIN_TOOL_META, name)
        ? BUILTIN_TOOL_META[name as LockedToolName]
        : undefined;
      if (builtin) {
        if (builtin.capability === r.meta.capability) return;
        throw new PermissionGateError(
          'builtin-meta-locked',
          `toolMeta.${name}: built-in tool ${quote(name)} is "${builtin.capability}" and cannot be reclassified as "${r.meta.capability}"; use policy.overrides to tighten it`,
        );
      }
      own.set(name, r.meta);
    },
    get(name) {
      if (Object.hasOwn(BUILTIN_TOOL_META, name)) return BUILTIN_TOOL_META[name as LockedToolName];
      return own.get(name);
    },
    isBuiltin(name) {
      return Object.hasOwn(BUILTIN_TOOL_META, name);
    },
    entries() {
      return [...own.entries()];
    },
  };
  if (initial !== undefined) {
    for (const [name, meta] of Object.entries(initial)) registry.register(name, meta);
  }
  return registry;
}
