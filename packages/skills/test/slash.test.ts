import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidSkillName, parseSlashCommand } from '../src/index.js';

describe('parseSlashCommand', () => {
  // Example inputs and outputs live in vectors/slash-commands.json (run by vectors.test.ts).
  it('property: any valid name round-trips with any args', () => {
    const name = fc
      .array(fc.stringMatching(/^[a-z0-9]{1,6}$/), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.join('-'))
      .filter((n) => n.length <= 64);
    const args = fc.string().map((s) => s.trim());
    fc.assert(
      fc.property(name, args, (n, a) => {
        const parsed = parseSlashCommand(a === '' ? `/${n}` : `/${n} ${a}`);
        expect(parsed).toEqual({ name: n, args: a });
      }),
      { numRuns: 300 },
    );
  });

  it('property: never throws, and any result has a valid name and trimmed args', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `/${s}`),
        ),
        (text) => {
          const parsed = parseSlashCommand(text);
          if (parsed) {
            expect(isValidSkillName(parsed.name)).toBe(true);
            expect(parsed.args).toBe(parsed.args.trim());
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('handles a very long input quickly enough to return (no catastrophic backtracking)', () => {
    expect(parseSlashCommand(`/${'a-'.repeat(50_000)}`)).toBeNull();
    expect(parseSlashCommand(`/run ${' '.repeat(100_000)}x`)).toEqual({ name: 'run', args: 'x' });
  });
});
