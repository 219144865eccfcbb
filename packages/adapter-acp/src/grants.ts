import { hasShellMetacharacters } from '@codeagent/permission-gate';
import { resolvePath } from '@codeagent/render-intent';

/**
 * One "allow always" answer, scoped: a Bash command prefix (whole words) or a file tool's path. Never a whole
 * tool. Kept per ACP session until permission-gate has scoped grants of its own (see ADR 0152).
 */
export type ScopedGrant =
  | {
      /** Granted tool (always `Bash` for a prefix). */
      readonly tool: string;
      /** Command words that a later command must start with (or equal, when `exact`). */
      readonly prefix: readonly string[];
      /** The grant covers only this exact command (wrappers, destructive commands, no subcommand). */
      readonly exact: boolean;
    }
  | {
      /** Granted file tool. */
      readonly tool: string;
      /** Absolute, normalised path a later call must name exactly. */
      readonly path: string;
    };

/** File tools whose "allow always" grants their `file_path` argument. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['Read', 'Write', 'Edit']);
/** Commands that run other commands: a prefix of theirs would grant anything, so they are granted exactly. */
const WRAPPERS: ReadonlySet<string> = new Set([
  'env',
  'sudo',
  'doas',
  'xargs',
  'bash',
  'sh',
  'zsh',
  'dash',
  'fish',
  'nohup',
  'timeout',
  'nice',
  'ionice',
  'time',
  'exec',
  'eval',
  'command',
  'builtin',
  'watch',
  'strace',
  'chroot',
  'setsid',
  'stdbuf',
  'busybox',
  'su',
  'ssh',
  // Destructive or permission-changing commands: granting `rm build` must not grant `rm build /`.
  'rm',
  'rmdir',
  'mv',
  'cp',
  'dd',
  'ln',
  'chmod',
  'chown',
  'chgrp',
  'kill',
  'pkill',
  'killall',
  'truncate',
  'shred',
  'mkfs',
  'find',
  'curl',
  'wget',
]);
/** A subcommand word: `test`, `status`, `run-script`. */
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;
/** A command name: no assignment (`FOO=1 cmd`), no option. */
const COMMAND = /^[A-Za-z0-9_./][A-Za-z0-9._+/-]*$/;
/** An argument word: options and `--key=value` included. */
const ARGUMENT = /^[A-Za-z0-9._+:@%,=/-]+$/;

/**
 * The words of a simple command, or `null` when the shell would not run exactly these words: chaining,
 * substitution, redirection (permission-gate's `hasShellMetacharacters`), quotes, escapes, globs, variables,
 * braces, `~`, `!`, comments, or an assignment in front.
 */
function commandWords(command: string): string[] | null {
  if (hasShellMetacharacters(command)) return null;
  if (/["'\\$*?[\]{}~()!#]/.test(command)) return null;
  const words = command.trim().split(/[ \t]+/);
  const [first, ...rest] = words;
  if (first === undefined || !COMMAND.test(first) || !rest.every((w) => ARGUMENT.test(w))) return null;
  return words;
}

/**
 * The grant an "allow always" answer to this call would create, or `null` when the call cannot be scoped
 * (then the editor is not offered "allow always"). Bash: the command's first word, plus its second when that
 * is a subcommand (`npm test`, `git status`); exactly this command when there is no subcommand or the command is a wrapper
 * (`env`, `sh`, `xargs`…) or destructive (`rm`, `mv`, `chmod`…);
 * refused with shell chaining, substitution, redirection, quoting or expansions. Read/Write/Edit: the absolute path.
 */
export function scopedGrantFor(name: string, input: unknown, cwd: string): ScopedGrant | null {
  if (typeof input !== 'object' || input === null) return null;
  const args = input as Record<string, unknown>;
  if (name === 'Bash') {
    if (typeof args.command !== 'string' || args.run_in_background === true) return null;
    const words = commandWords(args.command);
    if (words === null) return null;
    const [first, second] = words as [string, ...string[]];
    const base = first.split('/').pop() ?? first;
    if (WRAPPERS.has(base) || second === undefined || !SUBCOMMAND.test(second)) {
      return { tool: name, prefix: words, exact: true };
    }
    return { tool: name, prefix: [first, second], exact: false };
  }
  if (FILE_TOOLS.has(name)) {
    if (typeof args.file_path !== 'string' || args.file_path === '' || args.file_path.includes('\u0000'))
      return null;
    return { tool: name, path: resolvePath(args.file_path, cwd) };
  }
  return null;
}

/** True when `grant` covers this call: same tool and, for Bash, a metacharacter-free command starting with the prefix words. */
export function grantCovers(grant: ScopedGrant, name: string, input: unknown, cwd: string): boolean {
  if (grant.tool !== name || typeof input !== 'object' || input === null) return false;
  const args = input as Record<string, unknown>;
  if ('prefix' in grant) {
    if (typeof args.command !== 'string' || args.run_in_background === true) return false;
    const words = commandWords(args.command);
    if (words === null || words.length < grant.prefix.length) return false;
    if (grant.exact && words.length !== grant.prefix.length) return false;
    return grant.prefix.every((w, i) => words[i] === w);
  }
  return typeof args.file_path === 'string' && resolvePath(args.file_path, cwd) === grant.path;
}

/** A short label of the grant for the editor's option ("Always allow `npm test …`"). */
export function describeGrant(grant: ScopedGrant): string {
  if (!('prefix' in grant)) return `${grant.tool} ${grant.path}`;
  return grant.exact
    ? `\`${grant.prefix.join(' ')}\``
    : `commands starting with \`${grant.prefix.join(' ')}\``;
}

/** The scoped session grants of one ACP session. */
export class ScopedGrants {
  readonly #grants: ScopedGrant[] = [];

  constructor(private readonly cwd: string) {}

  /** The grants so far, oldest first. */
  list(): readonly ScopedGrant[] {
    return this.#grants.slice();
  }

  /** Remembers a grant. */
  add(grant: ScopedGrant): void {
    this.#grants.push(grant);
  }

  /** True when an earlier "allow always" covers this call. */
  covers(name: string, input: unknown): boolean {
    return this.#grants.some((g) => grantCovers(g, name, input, this.cwd));
  }
}
