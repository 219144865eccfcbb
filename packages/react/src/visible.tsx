import type { ReactNode } from 'react';
import { toText } from './text.js';

// Escapes and C0/C1 controls (but \n and \t), removed like everywhere else.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Characters that render as nothing or reorder text: shown as a visible code point marker instead.
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
];

const isInvisible = (c: string): boolean => {
  const code = c.charCodeAt(0);
  return INVISIBLE_RANGES.some(([lo, hi]) => code >= lo && code <= hi);
};

const hex = (c: string): string => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Untrusted text for an approval: nothing hidden. Escapes and controls are dropped (a `[ESC]`-free view is what
 * will run), invisible and bidi characters become `⟨U+XXXX⟩` markers, tabs `→`, runs of two or more spaces
 * middle dots, and line breaks `↵` before the break, so the user sees exactly the characters that would run.
 */
export function VisibleText({ text }: { text: unknown }): ReactNode {
  const s = toText(text)
    .replace(/\u001b/g, '␛')
    .replace(CONTROLS, (c) => `⟨${hex(c)}⟩`);
  const parts: ReactNode[] = [];
  let buffer = '';
  let key = 0;
  const flush = (): void => {
    if (buffer !== '') parts.push(buffer);
    buffer = '';
  };
  const mark = (label: string, title: string): void => {
    flush();
    parts.push(
      <span key={key++} className="ca-visible-mark" title={title}>
        {label}
      </span>,
    );
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '\t') mark('→\t', 'tab');
    else if (c === '\n') {
      mark('↵', 'line break');
      buffer += '\n';
    } else if (c === ' ' && (s[i + 1] === ' ' || s[i - 1] === ' ')) mark('·', 'space');
    else if (isInvisible(c)) mark(`⟨${hex(c)}⟩`, 'invisible character');
    else buffer += c;
  }
  flush();
  return <span className="ca-visible">{parts}</span>;
}
