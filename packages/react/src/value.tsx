import type { ReactNode } from 'react';
import { plainText } from './text.js';

/** Props of {@link ValueView}. */
export interface ValueViewProps {
  /** The portable text; untrusted. */
  value: string;
}

/** The last fallback of every view: the portable value as preformatted plain text. */
export function ValueView({ value }: ValueViewProps): ReactNode {
  return <pre className="ca-value">{plainText(value)}</pre>;
}
