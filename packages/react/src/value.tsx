import type { ReactNode } from 'react';
import { plainText } from './text.js';

/** Props of {@link ValueView}. */
export interface ValueViewProps {
  /** The portable text; untrusted. */
  value: string;
}

/** The last fallback of every view: the portable value as preformatted plain text (`(no output)` when empty). */
export function ValueView({ value }: ValueViewProps): ReactNode {
  const text = plainText(value);
  if (text === '') return <p className="ca-value-empty">(no output)</p>;
  return <pre className="ca-value">{text}</pre>;
}
