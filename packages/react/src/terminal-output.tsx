import type { ReactNode } from 'react';
import { parseSgr } from './sgr.js';

/** Props of {@link TerminalOutput}. */
export interface TerminalOutputProps {
  /** Raw terminal output (may stream in); untrusted. */
  output: string;
}

/** Terminal output with its SGR colours as classes; every other escape and control is removed. */
export function TerminalOutput({ output }: TerminalOutputProps): ReactNode {
  const spans = parseSgr(output.endsWith('\n') ? output.slice(0, -1) : output);
  return (
    <pre className="ca-terminal-output">
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
