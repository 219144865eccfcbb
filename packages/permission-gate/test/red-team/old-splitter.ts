/**
 * The hand-written command splitter the gate used before the bash grammar (ADR 0032), kept only here and in
 * the bench as the baseline: the red-team test shows which variants it got wrong.
 */
import {
  compileGlob,
  type Decision,
  MODE_TABLE,
  type PermissionMode,
  type PermissionRules,
} from '../../src/index.js';

const SHELL_META = /[;&|`\n\r<>\u0000]|\$\(/;
const SHELL_SPLIT = /(?:&&|\|\||[;&|\n\r`]|\$\(|\))/;
const COMMAND_PREFIX =
  /^(?:[({!]|(?:if|then|else|elif|do|while|until|time)(?= |$)|[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|[^\s"'();&|]*)(?= |$)) ?/;

function stripCommandPrefix(command: string): string {
  let rest = command;
  for (let m = COMMAND_PREFIX.exec(rest); m !== null && m[0] !== ''; m = COMMAND_PREFIX.exec(rest)) {
    rest = rest.slice(m[0].length);
  }
  return rest.trim();
}

function subCommands(value: string): string[] {
  const parts = new Set<string>();
  for (const piece of value.split(SHELL_SPLIT)) {
    const collapsed = piece.replace(/[ \t]+/g, ' ').trim();
    if (collapsed !== '') parts.add(collapsed);
    const bare = stripCommandPrefix(collapsed);
    if (bare !== '') parts.add(bare);
  }
  return [...parts];
}

function pattern(rule: string): string | undefined {
  const m = /^Bash\(([\s\S]*)\)$/.exec(rule);
  if (!m) return undefined;
  const p = m[1] as string;
  return p.endsWith(':*') ? `${p.slice(0, -2)}*` : p;
}

/** The old gate's decision function for Bash commands under fixed rules (`Bash(...)` rules only), globs compiled once. */
export function createOldMatcher(
  rules: PermissionRules,
  mode: PermissionMode,
): (command: string) => Decision {
  const fromMode = MODE_TABLE[mode].exec;
  const compile = (list: readonly string[] | undefined) =>
    (list ?? []).map((rule) => {
      const p = pattern(rule);
      return p === undefined
        ? { whole: rule === 'Bash', re: undefined }
        : { whole: false, re: compileGlob(p, 'text') };
    });
  const deny = compile(rules.deny);
  const ask = compile(rules.ask);
  const allow = compile(rules.allow);
  return (command) => {
    let parts: string[] | undefined;
    const restrictive = (r: { whole: boolean; re: ReturnType<typeof compileGlob> | undefined }) => {
      if (!r.re) return r.whole;
      if (r.re.test(command)) return true;
      parts ??= subCommands(command);
      return parts.some((part) => r.re?.test(part));
    };
    if (deny.some(restrictive)) return 'deny';
    if (ask.some(restrictive)) return fromMode === 'deny' ? 'deny' : 'ask';
    const meta = SHELL_META.test(command);
    if (allow.some((r) => (r.re ? !meta && r.re.test(command) : r.whole)))
      return fromMode === 'deny' ? 'deny' : 'allow';
    return fromMode;
  };
}

/** The decision the old gate made for a Bash command (rules of the form `Bash(...)` only). */
export function oldDecision(command: string, rules: PermissionRules, mode: PermissionMode): Decision {
  return createOldMatcher(rules, mode)(command);
}
