import { type ReactNode, useEffect, useState } from 'react';
import type { HighlightToken } from '../highlight.js';
import { highlightCode } from '../highlighter.js';
import type { ArtifactRendererProps } from '../registry.js';
import { inlineText, plainText, readString } from '../text.js';
import { v1Payload } from './payload.js';

// Language names and file extensions mapped onto the grammars bundled in the lazy highlighter.
const LANGS: Readonly<Record<string, string>> = {
  bash: 'bash',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  css: 'css',
  go: 'go',
  html: 'html',
  htm: 'html',
  javascript: 'javascript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  jsx: 'jsx',
  python: 'python',
  py: 'python',
  rust: 'rust',
  rs: 'rust',
  tsx: 'tsx',
  typescript: 'typescript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  yaml: 'yaml',
  yml: 'yaml',
};

/** Longest source highlighted; longer code stays plain text (tokenising cost grows with size). */
const MAX_HIGHLIGHT_CHARS = 200_000;

/** The bundled grammar for a language hint or file name, if any. */
export function resolveLang(lang: string | undefined, filename: string | undefined): string | undefined {
  const pick = (key: string | undefined): string | undefined =>
    key !== undefined && Object.hasOwn(LANGS, key) ? LANGS[key] : undefined;
  return pick(lang?.toLowerCase()) ?? pick(filename?.split('.').pop()?.toLowerCase());
}

/** Props of {@link CodeBlock}. */
export interface CodeBlockProps {
  /** Source text; untrusted. */
  code: string;
  /** Language hint. */
  lang?: string | undefined;
  /** File name hint (also shown). */
  filename?: string | undefined;
}

/** Source code: shown as plain text at once, highlighted when the lazily loaded highlighter arrives. */
export function CodeBlock({ code, lang, filename }: CodeBlockProps): ReactNode {
  const text = plainText(code);
  const grammar = resolveLang(lang, filename);
  const [tokens, setTokens] = useState<{ text: string; lines: HighlightToken[][] } | null>(null);
  useEffect(() => {
    if (grammar === undefined || text.length > MAX_HIGHLIGHT_CHARS) return;
    let live = true;
    highlightCode(text, grammar, () => live)
      .then((lines) => {
        if (live && lines !== null) setTokens({ text, lines });
      })
      .catch(() => {
        // Highlighting is an enhancement: on any failure the plain text stays.
      });
    return () => {
      live = false;
    };
  }, [text, grammar]);
  const highlighted = tokens !== null && tokens.text === text ? tokens.lines : null;
  return (
    <div
      className="ca-code"
      data-lang={grammar ?? 'text'}
      data-highlighted={highlighted === null ? 'false' : 'true'}
    >
      {filename === undefined ? null : <div className="ca-code-filename">{inlineText(filename)}</div>}
      <pre className="ca-code-pre">
        <code>
          {highlighted === null
            ? text
            : highlighted.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their position
                <span key={i} className="ca-code-line">
                  {line.map((token, j) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: tokens have no identity beyond their position
                    <span key={j} className="ca-code-token" style={token.style}>
                      {token.content}
                    </span>
                  ))}
                  {'\n'}
                </span>
              ))}
        </code>
      </pre>
    </div>
  );
}

/** `code` artifacts: source (highlighted lazily) with its file name and, when present, its output. */
export function CodeRenderer({ artifact, fallback }: ArtifactRendererProps): ReactNode {
  const payload = v1Payload(artifact);
  const text = readString(payload, 'text');
  if (text === undefined) return fallback;
  const output = readString(payload, 'output');
  return (
    <div className="ca-code-artifact">
      <CodeBlock code={text} lang={readString(payload, 'lang')} filename={readString(payload, 'filename')} />
      {output === undefined || output === '' ? null : (
        <pre className="ca-code-output">{plainText(output)}</pre>
      )}
    </div>
  );
}
