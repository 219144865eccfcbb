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

/** The decision the old gate made for a Bash command (rules of the form `Bash(...)` only). */
export function oldDecision(command: string, rules: PermissionRules, mode: PermissionMode): Decision {
  const fromMode = MODE_TABLE[mode].exec;
  const matches = (rule: string, restrictive: boolean): boolean => {
    const p = pattern(rule);
    if (p === undefined) return rule === 'Bash';
    const re = compileGlob(p, 'text');
    if (!restrictive) return !SHELL_META.test(command) && re.test(command);
    return re.test(command) || subCommands(command).some((part) => re.test(part));
  };
  if ((rules.deny ?? []).some((r) => matches(r, true))) return 'deny';
  if ((rules.ask ?? []).some((r) => matches(r, true))) return fromMode === 'deny' ? 'deny' : 'ask';
  if ((rules.allow ?? []).some((r) => matches(r, false))) return fromMode === 'deny' ? 'deny' : 'allow';
  return fromMode;
}
