import type { ReactNode } from 'react';
import { Markdown } from '../markdown.js';
import type { ArtifactRendererProps } from '../registry.js';
import { plainText, readString } from '../text.js';
import { v1Payload } from './payload.js';

const MARKDOWN_LANGS: readonly string[] = ['markdown', 'md', 'gfm'];

/** `text` artifacts: Markdown (no `lang`, or a markdown `lang`) or preformatted text for any other `lang`. */
export function TextRenderer({ artifact, fallback }: ArtifactRendererProps): ReactNode {
  const payload = v1Payload(artifact);
  const text = readString(payload, 'text');
  if (text === undefined) return fallback;
  const lang = readString(payload, 'lang');
  if (lang === undefined || MARKDOWN_LANGS.includes(lang.toLowerCase())) return <Markdown text={text} />;
  return <pre className="ca-text">{plainText(text)}</pre>;
}
