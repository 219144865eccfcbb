import { isSafeTerminalOutput, visibleWidth } from '@codeagent/terminal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalQuestion } from '../src/host.js';

describe('approvalQuestion', () => {
  it('names what the card shows', () => {
    expect(approvalQuestion({ card: 'generic', title: 'Stop job-2', kind: 'execute' }, 'job_kill')).toBe(
      'Allow Stop job-2?',
    );
    expect(approvalQuestion({ card: 'terminal', title: 'npm test' }, 'Bash')).toBe('Run npm test?');
    expect(
      approvalQuestion(
        {
          card: 'generic',
          title: 'sleep 9',
          kind: 'execute',
          rawInput: { command: 'sleep 9', run_in_background: true },
        },
        'Bash',
      ),
    ).toBe('Run sleep 9 in the background?');
    expect(approvalQuestion({ card: 'diff', title: 'Write a.ts', diffs: [] }, 'Write')).toBe(
      'Allow Write a.ts?',
    );
    expect(approvalQuestion({ card: 'generic', title: '  ' }, 'mcp__x__y')).toBe('Allow mcp__x__y?');
  });

  it('shows hidden characters instead of applying them, and cuts long or multi-line titles', () => {
    expect(approvalQuestion({ card: 'terminal', title: 'ls\u001b[8m; rm -rf ~' }, 'Bash')).toBe(
      'Run ls<ESC>[8m; rm -rf ~?',
    );
    expect(approvalQuestion({ card: 'terminal', title: `git status${' '.repeat(300)}; x` }, 'Bash')).toBe(
      'Run git status␠×300; x?',
    );
    expect(approvalQuestion({ card: 'terminal', title: 'echo a\nrm -rf b' }, 'Bash')).toBe('Run echo a↵ …?');
    const long = approvalQuestion({ card: 'generic', title: 'x'.repeat(500) }, 'T');
    expect(long).toBe(`Allow ${'x'.repeat(59)}…?`);
  });

  it('is one safe line of bounded width for any title (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 400 }),
        fc.constantFrom('generic', 'terminal'),
        (title, card) => {
          const q = approvalQuestion(
            card === 'terminal' ? { card, title } : { card, title, kind: 'execute' },
            'Tool',
          );
          expect(q.includes('\n')).toBe(false);
          expect(isSafeTerminalOutput(q)).toBe(true);
          expect(q.endsWith('?')).toBe(true);
          expect(visibleWidth(q)).toBeLessThanOrEqual(60 + 'Allow ?'.length);
        },
      ),
    );
  });
});
