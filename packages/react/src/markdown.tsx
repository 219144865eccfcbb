import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import { CodeBlock } from './renderers/code.js';
import { plainText, read, toText } from './text.js';
import { safeHref } from './url.js';

/** Props of {@link Markdown}. */
export interface MarkdownProps {
  /** Markdown source from the model or a tool; untrusted. */
  text: string;
  /** Extra class on the wrapper. */
  className?: string | undefined;
}

/** The language and text of a fenced code block (`<pre><code class="language-x">`), from the hast node. */
function fencedCode(node: unknown): { lang: string; text: string } | undefined {
  const children = read(node, 'children');
  const code: unknown = Array.isArray(children) ? children[0] : undefined;
  if (read(code, 'tagName') !== 'code') return undefined;
  const classes = read(read(code, 'properties'), 'className');
  const language = Array.isArray(classes)
    ? classes.map(String).find((c) => c.startsWith('language-'))
    : undefined;
  if (language === undefined) return undefined;
  const parts = read(code, 'children');
  const text = Array.isArray(parts)
    ? parts.map((p) => (read(p, 'type') === 'text' ? toText(read(p, 'value')) : '')).join('')
    : '';
  return { lang: language.slice('language-'.length), text: text.endsWith('\n') ? text.slice(0, -1) : text };
}

const components: Components = {
  // Fenced code with a language is highlighted like a code artifact (lazily, plain text first).
  pre({ node, children }) {
    const fenced = fencedCode(node);
    return fenced === undefined ? <pre>{children}</pre> : <CodeBlock code={fenced.text} lang={fenced.lang} />;
  },
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

/** Longest source parsed as Markdown; longer text is shown as plain text. */
const MAX_MARKDOWN_CHARS = 200_000;
/** Most nested containers (quotes, list items, indentation) per line; the parser recurses per level. */
const MAX_DEPTH = 40;
/** Most emphasis / code / bracket delimiter runs: matching them costs quadratic time in the parser. */
const MAX_DELIMITER_RUNS = 1000;
const MAX_BRACKETS = 2000;

function containerDepth(line: string): number {
  let depth = 0;
  let i = 0;
  let indent = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') {
      indent += line[i] === '\t' ? 4 : 1;
      i++;
    }
    const c = line[i];
    const next = line[i + 1];
    if (c === '>') {
      depth++;
      i++;
    } else if ((c === '-' || c === '*' || c === '+') && (next === ' ' || next === '\t')) {
      depth++;
      i += 2;
    } else {
      const ordered = /^\d{1,9}[.)][ \t]/.exec(line.slice(i, i + 12));
      if (ordered === null) return depth + Math.floor(indent / 2);
      depth++;
      i += ordered[0].length;
    }
  }
}

/**
 * Whether `source` is too big or too deeply nested to parse as Markdown in bounded time and stack: such text
 * (hostile or not) is shown as plain preformatted text instead.
 */
export function isTooComplexForMarkdown(source: string): boolean {
  if (source.length > MAX_MARKDOWN_CHARS) return true;
  let runs = 0;
  for (const _ of source.matchAll(/[*_`~]+/g)) if (++runs > MAX_DELIMITER_RUNS) return true;
  let brackets = 0;
  for (let i = source.indexOf('['); i !== -1; i = source.indexOf('[', i + 1))
    if (++brackets > MAX_BRACKETS) return true;
  for (const line of source.split('\n')) if (containerDepth(line) > MAX_DEPTH) return true;
  return false;
}

function safeUrl(url: string): string {
  return safeHref(url) ?? '';
}

/** Most source characters whose rendered elements are kept (least recently used dropped first). */
const CACHE_CHARS = 2_000_000;
const rendered = new Map<string, ReactNode>();
let renderedChars = 0;

/**
 * The elements of one source, parsed once: a virtualised transcript mounts the same message again and again, and
 * React elements are immutable, so the parse result is reused (the cache is bounded by the characters it holds).
 */
function markdownElements(source: string): ReactNode {
  const hit = rendered.get(source);
  if (hit !== undefined) {
    rendered.delete(source);
    rendered.set(source, hit);
    return hit;
  }
  const node = isTooComplexForMarkdown(source) ? (
    <pre className="ca-markdown-plain">{source}</pre>
  ) : (
    // react-markdown's `Markdown` is a pure function of its options (no hooks): its result can be kept.
    ReactMarkdown({
      children: source,
      components,
      urlTransform: safeUrl,
      disallowedElements: DISALLOWED,
      unwrapDisallowed: true,
    })
  );
  rendered.set(source, node);
  renderedChars += source.length;
  for (const key of rendered.keys()) {
    if (renderedChars <= CACHE_CHARS || rendered.size <= 1) break;
    rendered.delete(key);
    renderedChars -= key.length;
  }
  return node;
}

/**
 * Renders untrusted Markdown safely: raw HTML is shown as text, links keep only `http(s)`, `mailto` and
 * relative URLs (others become plain text), images never load (a placeholder with the alt text), and terminal
 * escapes, controls and bidi overrides are removed from the source first. Text too big or too deeply nested to
 * parse in bounded time (see {@link isTooComplexForMarkdown}) is shown as plain preformatted text.
 */
export function Markdown({ text, className }: MarkdownProps): ReactNode {
  const source = plainText(toText(text));
  return (
    <div className={className === undefined ? 'ca-markdown' : `ca-markdown ${className}`}>
      {markdownElements(source)}
    </div>
  );
}
