import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import { plainText, toText } from './text.js';
import { safeHref } from './url.js';

/** Props of {@link Markdown}. */
export interface MarkdownProps {
  /** Markdown source from the model or a tool; untrusted. */
  text: string;
  /** Extra class on the wrapper. */
  className?: string | undefined;
}

const components: Components = {
  a({ href, children }) {
    const safe = safeHref(href);
    if (safe === undefined) return <span className="ca-md-link-blocked">{children}</span>;
    return (
      <a href={safe} rel="noopener noreferrer nofollow ugc" target="_blank" referrerPolicy="no-referrer">
        {children}
      </a>
    );
  },
  // Images from model text never load: a request to a remote URL could leak data. Show what it would be.
  img({ src, alt }) {
    const label = plainText(alt ?? '');
    return (
      <span className="ca-md-image" title={plainText(typeof src === 'string' ? src : '')}>
        [image{label === '' ? '' : `: ${label}`}]
      </span>
    );
  },
};

// Elements with behaviour or external loads that Markdown cannot produce without raw HTML; kept out anyway.
const DISALLOWED = [
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'form',
  'input',
  'textarea',
  'link',
  'meta',
];

function safeUrl(url: string): string {
  return safeHref(url) ?? '';
}

/**
 * Renders untrusted Markdown safely: raw HTML is shown as text, links keep only `http(s)`, `mailto` and
 * relative URLs (others become plain text), images never load (a placeholder with the alt text), and terminal
 * escapes, controls and bidi overrides are removed from the source first.
 */
export function Markdown({ text, className }: MarkdownProps): ReactNode {
  const source = plainText(toText(text));
  return (
    <div className={className === undefined ? 'ca-markdown' : `ca-markdown ${className}`}>
      <ReactMarkdown
        components={components}
        urlTransform={safeUrl}
        disallowedElements={DISALLOWED}
        unwrapDisallowed
      >
        {source}
      </ReactMarkdown>
    </div>
  );
}
