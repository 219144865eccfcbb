import type { ReactNode } from 'react';
import { parseSgr } from './sgr.js';

/** Props of {@link TerminalOutput}. */
export interface TerminalOutputProps {
  /** Raw terminal output (may stream in); untrusted. */
  output: string;
}

/** Most characters of output drawn; earlier output is cut (the end of a log is what matters). */
export const MAX_TERMINAL_CHARS = 200_000;

/**
 * Terminal output with its SGR colours as classes; every other escape and control is removed. Output longer than
 * {@link MAX_TERMINAL_CHARS} shows its end, with a note saying how much was left out.
 */
export function TerminalOutput({ output }: TerminalOutputProps): ReactNode {
  const text = typeof output === 'string' ? output : '';
  const cut = text.length > MAX_TERMINAL_CHARS ? text.length - MAX_TERMINAL_CHARS : 0;
  const shown = cut === 0 ? text : text.slice(cut);
  const spans = parseSgr(shown.endsWith('\n') ? shown.slice(0, -1) : shown);
  return (
    <pre className="ca-terminal-output">
      {cut === 0 ? null : (
        <span className="ca-terminal-cut">
          [{cut} earlier characters not shown]{'\n'}
        </span>
      )}
      {spans.map((span, i) =>
        span.className === '' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional
          <span key={i}>{span.text}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional
          <span key={i} className={span.className}>
            {span.text}
          </span>
        ),
      )}
    </pre>
  );
}
