import { assertNever } from '@codeagent/artifact-schema/internal';
import { type NormalisedPath, normalisePath } from './paths.js';
import { hasShellMetacharacters, primaryArgument } from './rules.js';
import type { ToolMeta } from './types.js';

/**
 * What a session grant covers. Bash-like tools (primary argument `command`): a command prefix of plain words, or
 * one exact command; file tools (`file_path` / `path`): one normalised path; a tool whose declared primary argument
 * is something else (a job id, a URL): exactly that value; every other tool: the whole tool.
 */
export type GrantScope =
  | {
      /** Later commands that start with `prefix` at a word boundary and contain no shell syntax. */
      readonly kind: 'command-prefix';
      /** Leading plain words of the approved command, blanks collapsed (`npm run test`). */
      readonly prefix: string;
    }
  | {
      /** Exactly this command again (blanks collapsed), with no shell syntax. */
      readonly kind: 'command';
      /** The approved command, blanks collapsed. */
      readonly command: string;
    }
  | {
      /** Later calls on exactly this path (after normalisation). */
      readonly kind: 'path';
      /** Normalised path: absolute when the gate knows the working directory. */
      readonly path: string;
    }
  | {
      /** Later calls whose declared primary argument (not a path: a job id, a URL) is exactly this value. */
      readonly kind: 'argument';
      /** The argument's key (`job_id`, `url`). */
      readonly key: string;
      /** Its value, as approved (compared exactly). */
      readonly value: string;
    }
  | {
      /** Every later call of the tool. */
      readonly kind: 'tool';
    };

/** A session grant remembered by a gate: allows later calls in its scope that would otherwise ask by mode. */
export type SessionGrant = GrantScope & {
  /** Stable id for listing and `revokeGrant(id)`. */
  readonly id: string;
  /** The tool the grant is for (exact name). */
  readonly tool: string;
};

/** Words after the command word that may extend a prefix: plain subcommand names, no options or paths. */
const PLAIN_WORD = /^[A-Za-z0-9][A-Za-z0-9_.:@+-]*$/;
/** Longest command prefix a grant takes, in words. */
const MAX_PREFIX_WORDS = 3;
/** A command word a prefix grant may start with: a plain name or path, no assignment. */
const COMMAND_WORD = /^[A-Za-z0-9_./+-]+$/;
/** Wrappers, interpreters and destructive commands: a grant for them covers one exact command only. */
const EXACT_ONLY = new Set([
  'sudo',
  'doas',
  'su',
  'env',
  'command',
  'builtin',
  'exec',
  'eval',
  'source',
  '.',
  'nohup',
  'nice',
  'time',
  'timeout',
  'xargs',
  'watch',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'deno',
  'bun',
  'rm',
  'rmdir',
  'mv',
  'cp',
  'dd',
  'chmod',
  'chown',
  'chgrp',
  'ln',
  'find',
  'shred',
  'truncate',
  'mkfs',
  'curl',
  'wget',
  'ssh',
  'scp',
  'rsync',
]);
const PATH_KEYS = new Set(['file_path', 'path']);
/** Built-in tools whose grants are always scoped: by command for Bash, by path for the file tools. */
const SCOPED_BUILTINS: Readonly<Record<string, 'command' | 'path'>> = {
  Bash: 'command',
  Read: 'path',
  Write: 'path',
  Edit: 'path',
  Grep: 'path',
  Glob: 'path',
};

/** Collapses runs of spaces and tabs to one space and trims: the form grants compare commands in. */
function collapse(command: string): string {
  return command.replace(/[ \t]+/g, ' ').trim();
}

/**
 * The scope a session approval of this call would grant, or `null` when the call cannot be granted beyond
 * once (a command with shell syntax, an empty command, a path that escapes or cannot be read).
 */
export function grantScopeFor(
  name: string,
  input: unknown,
  meta: ToolMeta | undefined,
  cwd: NormalisedPath | undefined,
): GrantScope | null {
  const arg = primaryArgument(input, meta);
  const expected = Object.hasOwn(SCOPED_BUILTINS, name) ? SCOPED_BUILTINS[name] : undefined;
  if (expected === 'command' && arg?.key !== 'command') return null;
  if (expected === 'path' && (arg === undefined || !PATH_KEYS.has(arg.key))) return null;
  if (arg !== undefined && arg.key === 'command') {
    const command = collapse(arg.value);
    if (command === '' || hasShellMetacharacters(arg.value)) return null;
    const words = command.split(' ');
    const first = words[0] as string;
    const base = first.slice(first.lastIndexOf('/') + 1);
    // Quotes, escapes, expansions, globs, assignments and wrappers change what the words mean: exact re-runs only.
    if (/[\\'"$*?[\]{}~`]/.test(command) || !COMMAND_WORD.test(first) || EXACT_ONLY.has(base)) {
      return { kind: 'command', command };
    }
    const taken = [first];
    for (let i = 1; i < words.length && taken.length < MAX_PREFIX_WORDS; i++) {
      const w = words[i] as string;
      if (!PLAIN_WORD.test(w)) break;
      taken.push(w);
    }
    // A bare command word followed by options or paths (`rm -rf build`): grant exactly that command.
    if (taken.length === 1 && words.length > 1) return { kind: 'command', command };
    return { kind: 'command-prefix', prefix: taken.join(' ') };
  }
  if (arg !== undefined && PATH_KEYS.has(arg.key)) {
    const p = grantPath(arg.value, cwd);
    return p === undefined ? null : { kind: 'path', path: p };
  }
  if (arg !== undefined && meta?.primaryArgument === arg.key) {
    // A job id or a URL is no path: never normalised nor joined to the working directory, matched exactly.
    return arg.value === '' || arg.value.includes('\u0000')
      ? null
      : { kind: 'argument', key: arg.key, value: arg.value };
  }
  if (arg === undefined && meta?.primaryArgument !== undefined) return null;
  if (arg === undefined && hasPathOrCommandKey(input)) return null;
  return { kind: 'tool' };
}

function hasPathOrCommandKey(input: unknown): boolean {
  if (typeof input !== 'object' || input === null) return false;
  return ['command', 'file_path', 'path'].some((k) => Object.hasOwn(input, k));
}

function grantPath(raw: string, cwd: NormalisedPath | undefined): string | undefined {
  if (raw === '' || raw.includes('\u0000')) return undefined;
  const n = normalisePath(raw);
  if (n.absolute) return n.path;
  if (cwd) return normalisePath(`${cwd.path}/${n.path}`).path;
  return n.escapes ? undefined : n.path;
}

/** True when `grant` covers this call of `name` (the caller has already checked the decision came from the mode). */
export function grantCovers(
  grant: SessionGrant,
  name: string,
  input: unknown,
  meta: ToolMeta | undefined,
  cwd: NormalisedPath | undefined,
): boolean {
  if (grant.tool !== name) return false;
  switch (grant.kind) {
    case 'tool':
      return true;
    case 'command':
    case 'command-prefix': {
      const arg = primaryArgument(input, meta);
      if (arg === undefined || arg.key !== 'command') return false;
      // Fail closed: any chaining, substitution or redirection and the grant does not apply.
      if (hasShellMetacharacters(arg.value)) return false;
      const command = collapse(arg.value);
      if (grant.kind === 'command') return command === grant.command;
      return command === grant.prefix || command.startsWith(`${grant.prefix} `);
    }
    case 'path': {
      const arg = primaryArgument(input, meta);
      if (arg === undefined || !PATH_KEYS.has(arg.key)) return false;
      return grantPath(arg.value, cwd) === grant.path;
    }
    case 'argument': {
      const arg = primaryArgument(input, meta);
      return arg !== undefined && arg.key === grant.key && arg.value === grant.value;
    }
    default:
      return assertNever(grant, 'grantCovers');
  }
}

/** True when two scopes are the same (so approving again adds no duplicate). */
export function sameScope(a: GrantScope, b: GrantScope): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'tool':
      return true;
    case 'command':
      return b.kind === 'command' && a.command === b.command;
    case 'command-prefix':
      return b.kind === 'command-prefix' && a.prefix === b.prefix;
    case 'path':
      return b.kind === 'path' && a.path === b.path;
    case 'argument':
      return b.kind === 'argument' && a.key === b.key && a.value === b.value;
    default:
      return assertNever(a, 'sameScope');
  }
}

/**
 * A one-line description of what a grant covers, for approval prompts ("always: ..."), ACP permission options and
 * `/permissions`: each scope says its own reach (a command prefix, one command, one path, one argument value, the
 * whole tool), so a job id or a URL is never worded as a path.
 */
export function describeGrantScope(tool: string, scope: GrantScope): string {
  switch (scope.kind) {
    case 'tool':
      return `every ${tool} call`;
    case 'command':
      return `${tool} command \`${scope.command}\` exactly`;
    case 'command-prefix':
      return `${tool} commands starting with \`${scope.prefix}\``;
    case 'path':
      return `${tool} on ${scope.path} (this path only)`;
    case 'argument':
      return `${tool} with ${scope.key} \`${scope.value}\` (this ${scope.key} only)`;
    default:
      return assertNever(scope, 'describeGrantScope');
  }
}
