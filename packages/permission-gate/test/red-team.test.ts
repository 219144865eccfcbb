import { describe, expect, it } from 'vitest';
import {
  createPermissionGate,
  type Decision,
  type PermissionMode,
  type PermissionRules,
} from '../src/index.js';
import corpus from './red-team/bash-deny.json' with { type: 'json' };
import { oldDecision } from './red-team/old-splitter.js';

interface Variant {
  readonly id: string;
  readonly command: string;
  readonly rules: PermissionRules;
  readonly mode: PermissionMode;
  readonly expected: Decision;
  readonly note?: string;
}

const variants = corpus as readonly Variant[];

function decide(v: Variant): Decision {
  return createPermissionGate({ mode: v.mode, rules: v.rules }).evaluate('Bash', { command: v.command })
    .decision;
}

describe('red-team corpus: deny rules against bash (test/red-team/bash-deny.json)', () => {
  it('has at least 160 variants with unique ids', () => {
    expect(variants.length).toBeGreaterThanOrEqual(160);
    expect(new Set(variants.map((v) => v.id)).size).toBe(variants.length);
  });

  it.each(variants.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    expect(decide(v), `${JSON.stringify(v.command)} ${v.note ?? ''}`).toBe(v.expected);
  });

  const oldWrong = variants.filter((v) => oldDecision(v.command, v.rules, v.mode) !== v.expected);
  const oldLeaks = oldWrong.filter((v) => oldDecision(v.command, v.rules, v.mode) === 'allow');
  const denyVariants = variants.filter((v) => v.expected !== 'allow').length;
  it(`the old hand-written splitter decides ${oldWrong.length} of ${variants.length} wrongly and allows ${oldLeaks.length} of the ${denyVariants} it must not`, () => {
    // This corpus fails against the old splitter: the new parser is what makes it pass.
    expect(oldWrong.length).toBeGreaterThan(variants.length / 2);
    expect(oldLeaks.length).toBeGreaterThan(denyVariants / 2);
    // What the old splitter denied and the parser allows is only data it misread as commands (quoted heredocs, comments).
    const loosened = variants.filter(
      (v) => oldDecision(v.command, v.rules, v.mode) === 'deny' && decide(v) === 'allow',
    );
    expect(loosened.every((v) => v.expected === 'allow' && v.note !== undefined)).toBe(true);
  });
});
