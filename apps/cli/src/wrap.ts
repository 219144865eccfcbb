import { visibleWidth } from '@codeagent/terminal';

/**
 * Joins `parts` with `separator` (` · `), starting a new line before a part that would not fit `width` columns, so
 * a status line (banner, footer, an approval's options) breaks between its parts instead of mid-word at the
 * terminal's edge. `indent` starts the continuation lines. A part wider than the width keeps a line of its own.
 */
export function wrapParts(parts: readonly string[], width: number, indent = '', separator = ' · '): string[] {
  const lines: string[] = [];
  let line = '';
  const gap = visibleWidth(separator);
  for (const part of parts) {
    if (line !== '' && visibleWidth(line) + gap + visibleWidth(part) > width) {
      lines.push(line);
      line = `${indent}${part}`;
    } else line = line === '' ? part : `${line}${separator}${part}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
