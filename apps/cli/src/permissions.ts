import { describeGrantScope, type PermissionGate } from '@codeagent/permission-gate';
import { clean } from './clean.js';
import type { RuleSource } from './settings.js';

/** What `/permissions` shows besides the gate's own state. */
export interface PermissionsView {
  /** Rules in force with the file each came from (CLI-provided rules, e.g. the demo's, say so). */
  readonly sources: readonly RuleSource[];
  /** Entries of untrusted project settings that were ignored. */
  readonly ignored: ReadonlyArray<{ readonly file: string; readonly entry: string }>;
  /** Settings files read. */
  readonly files: readonly string[];
}

/**
 * Runs `/permissions [revoke <id>|revoke all]`: lists the mode, the session grants, the rules in force with their
 * source file and what untrusted project settings could not widen; or revokes grants. Returns the lines to print.
 */
export function permissionsCommand(
  gate: PermissionGate | null,
  view: PermissionsView,
  arg: string,
): string[] {
  if (gate === null) return ['no permission gate is installed'];
  const [verb = '', target = ''] = arg.split(/\s+/);
  if (verb === 'revoke') {
    if (target === '') return ['usage: /permissions revoke <grant id>|all'];
    if (target === 'all') {
      const n = gate.grants().length;
      gate.clearGrants();
      return [`revoked ${n} grant${n === 1 ? '' : 's'}`];
    }
    return gate.revokeGrant(target)
      ? [`revoked grant ${clean(target)}`]
      : [`no grant "${clean(target)}" (see /permissions)`];
  }
  if (verb !== '')
    return [`unknown /permissions argument "${clean(verb)}" (try /permissions or /permissions revoke <id>)`];
  const out: string[] = [`mode: ${gate.mode}`];
  const grants = gate.grants();
  out.push(
    grants.length === 0 ? 'session grants: none' : 'session grants (revoke with /permissions revoke <id>):',
  );
  for (const g of grants) out.push(`  ${g.id}  ${clean(describeGrantScope(g.tool, g))}`);
  if (view.sources.length === 0) out.push('rules: none');
  else out.push('rules:');
  for (const s of view.sources) out.push(`  ${s.list.padEnd(5)} ${clean(s.rule)}  (${clean(s.file)})`);
  if (view.ignored.length > 0) {
    out.push('ignored from untrusted project settings (trust the workspace with --trust to apply them):');
    for (const i of view.ignored) out.push(`  ${clean(i.entry)}  (${clean(i.file)})`);
  }
  out.push(`protected (writes always ask): ${gate.protectedPaths().map(clean).join(', ')}`);
  return out;
}
