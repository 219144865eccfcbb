import {
  detectLanguage,
  type HighlightLanguage,
  tokenize,
  type TokenType,
  visibleWidth,
} from '@codeagent/terminal';

/** Options of {@link MarkdownStream}. */
export interface MarkdownOptions {
  /** Write SGR styles (off: plain text, markers kept where they carry meaning). */
  readonly color: boolean;
  /** The terminal width, read for every line so a resize applies from the next line on. */
  readonly width: () => number;
}

type LineKind = 'undecided' | 'paragraph' | 'list' | 'quote' | 'held';

const SGR = {
  bold: ['\u001b[1m', '\u001b[22m'],
  italic: ['\u001b[3m', '\u001b[23m'],
  code: ['\u001b[36m', '\u001b[39m'],
} as const;

const TOKEN_COLOR: Record<TokenType, string> = {
  keyword: '\u001b[35m',
  constant: '\u001b[33m',
  string: '\u001b[32m',
  comment: '\u001b[2m',
  number: '\u001b[33m',
  plain: '',
};

const LIST = /^(\s*)([-*+]|\d{1,9}[.)])\s+/u;
const FENCE = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/u;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/u;

/**
 * Renders Markdown as it streams, for a terminal: headings, emphasis, inline code, lists, quotes, rules, fenced code
 * blocks (highlighted) and tables; prose is wrapped at word boundaries and streams word by word, structural lines
 * (headings, tables, code) are drawn once complete. Input must already be sanitised terminal text.
 */
export class MarkdownStream {
  #line = '';
  #emitted = 0;
  #kind: LineKind = 'undecided';
  #col = 0;
  #indent = 0;
  #fence: { marker: string; language: HighlightLanguage | null } | null = null;
  #table: string[] = [];
  #style = { bold: false, italic: false, code: false };
  #blankPending = false;
  /** Lines written so far, and whether the last one was blank (for spacing above headings). */
  #lines = 0;
  #lastBlank = false;

  constructor(private readonly options: MarkdownOptions) {}

  /** Feeds streamed text; returns what can be written now. */
  push(text: string): string {
    let out = '';
    for (const part of text.split(/(\n)/u)) {
      if (part === '\n') {
        const blank = this.#line.trim() === '';
        out += this.#endLine();
        this.#lines += 1;
        this.#lastBlank = blank;
      } else if (part !== '') {
        this.#line += part;
        out += this.#progress();
      }
    }
    return out;
  }

  /** Ends the stream (a tool call or the end of the turn): renders whatever is held. */
  flush(): string {
    let out = '';
    if (this.#line !== '') out += this.#endLine();
    out += this.#flushTable();
    out += this.#closeStyles();
    if (this.#fence !== null) this.#fence = null;
    this.#blankPending = false;
    return out;
  }

  #width(): number {
    return Math.max(20, Math.min(this.options.width(), 200));
  }

  #paint(on: boolean, code: readonly [string, string], text: string): string {
    return on && this.options.color ? `${code[0]}${text}${code[1]}` : text;
  }

  #closeStyles(): string {
    let out = '';
    if (this.options.color) {
      if (this.#style.bold) out += SGR.bold[1];
      if (this.#style.italic) out += SGR.italic[1];
      if (this.#style.code) out += SGR.code[1];
    }
    this.#style = { bold: false, italic: false, code: false };
    return out;
  }

  /** Decides what the current line is, from its first characters. */
  #decide(): LineKind {
    const line = this.#line;
    if (this.#fence !== null) return 'held';
    const trimmed = line.trimStart();
    if (/^(`{1,3}|~{1,3})/u.test(trimmed) || trimmed.startsWith('#') || trimmed.startsWith('|'))
      return 'held';
    if (/^[-*_\s]*$/u.test(line) && line.length < 80) return 'undecided'; // a rule, a list marker, or blank so far
    if (/^\s*\d{1,9}$/u.test(line)) return 'undecided';
    if (this.#table.length > 0) return 'held';
    if (trimmed.startsWith('>')) return 'quote';
    if (LIST.test(line)) return 'list';
    return 'paragraph';
  }

  /** Streams the finished words of a prose line. */
  #progress(): string {
    if (this.#kind === 'undecided') {
      this.#kind = this.#decide();
      if (this.#kind === 'undecided' || this.#kind === 'held') {
        if (this.#kind === 'held') return '';
        this.#kind = 'undecided';
        return '';
      }
      return this.#startProse();
    }
    if (this.#kind === 'held') return '';
    const lastSpace = this.#line.lastIndexOf(' ');
    if (lastSpace < this.#emitted) return '';
    const words = this.#line.slice(this.#emitted, lastSpace + 1);
    this.#emitted = lastSpace + 1;
    return this.#words(words);
  }

  /** Writes the prefix of a prose line (bullet, quote bar) and its first words. */
  #startProse(): string {
    let out = this.#flushTable();
    if (this.#blankPending) {
      out += '\n';
      this.#blankPending = false;
    }
    const line = this.#line;
    let prefix = '';
    let start = 0;
    if (this.#kind === 'list') {
      const m = LIST.exec(line);
      const lead = m?.[1] ?? '';
      const marker = m?.[2] ?? '-';
      const bullet = /\d/u.test(marker) ? marker : '•';
      prefix = `${lead}${bullet} `;
      start = m?.[0].length ?? 0;
    } else if (this.#kind === 'quote') {
      const m = /^\s*>\s?/u.exec(line);
      prefix = this.#paint(true, ['\u001b[2m', '\u001b[22m'], '│ ');
      start = m?.[0].length ?? 0;
    }
    out += prefix;
    this.#col = visibleWidth(prefix);
    this.#indent = this.#kind === 'list' ? this.#col : this.#kind === 'quote' ? 2 : 0;
    this.#emitted = start;
    return out + this.#progress();
  }

  /** Writes words with wrapping; styles carry over between words (and lines). */
  #words(text: string): string {
    let out = '';
    const width = this.#width();
    for (const word of text.split(/(\s+)/u)) {
      if (word === '' || /^\s+$/u.test(word)) continue;
      const rendered = this.#inline(word);
      const w = visibleWidth(rendered);
      const gap = this.#col > this.#indent ? 1 : 0;
      if (this.#col + gap + w > width && this.#col > this.#indent) {
        out += `\n${' '.repeat(this.#indent)}`;
        this.#col = this.#indent;
      } else if (gap === 1) {
        out += ' ';
        this.#col += 1;
      }
      out += rendered;
      this.#col += w;
    }
    return out;
  }

  /** Inline Markdown of one word: `code`, **bold**, *italic* (markers dropped when colour is on). */
  #inline(word: string): string {
    const color = this.options.color;
    let out = '';
    for (let i = 0; i < word.length; i += 1) {
      const c = word[i] ?? '';
      if (c === '`') {
        this.#style.code = !this.#style.code;
        out += color ? (this.#style.code ? SGR.code[0] : SGR.code[1]) : c;
        continue;
      }
      if (this.#style.code) {
        out += c;
        continue;
      }
      if ((c === '*' || c === '_') && word[i + 1] === c) {
        this.#style.bold = !this.#style.bold;
        out += color ? (this.#style.bold ? SGR.bold[0] : SGR.bold[1]) : '';
        i += 1;
        continue;
      }
      if (c === '*') {
        const opens = !this.#style.italic && i === 0 && word.length > 1;
        const closes = this.#style.italic && i === word.length - 1 - trailingPunctuation(word);
        if (opens || closes) {
          this.#style.italic = !this.#style.italic;
          out += color ? (this.#style.italic ? SGR.italic[0] : SGR.italic[1]) : '';
          continue;
        }
      }
      out += c;
    }
    return out;
  }

  /** A line is complete: structural lines are drawn now, prose gets its last words. */
  #endLine(): string {
    const started = this.#kind === 'paragraph' || this.#kind === 'list' || this.#kind === 'quote';
    const kind = started ? this.#kind : this.#decide();
    let out = '';
    if (started) {
      out += this.#words(this.#line.slice(this.#emitted));
    } else if (kind === 'paragraph' || kind === 'list' || kind === 'quote') {
      this.#kind = kind;
      out += this.#startProse();
      out += this.#words(this.#line.slice(this.#emitted));
    } else {
      const line = this.#line;
      this.#reset();
      return this.#structural(line);
    }
    this.#reset();
    return `${out}${this.#closeStyles()}\n`;
  }

  #reset(): void {
    this.#line = '';
    this.#emitted = 0;
    this.#kind = 'undecided';
    this.#col = 0;
    this.#indent = 0;
  }

  /** Headings, rules, fences, code and tables: drawn from the complete line. */
  #structural(line: string): string {
    const color = this.options.color;
    const width = this.#width();
    const fence = FENCE.exec(line);
    if (this.#fence !== null) {
      const closer = fence?.[1] ?? '';
      if (
        closer.startsWith(this.#fence.marker[0] ?? '`') &&
        closer.length >= this.#fence.marker.length &&
        (fence?.[2] ?? '') === ''
      ) {
        this.#fence = null;
        return color ? '\u001b[2m└\u001b[22m\n' : '```\n';
      }
      return `${this.#codeLine(line)}\n`;
    }
    if (fence !== null) {
      let out = this.#flushTable();
      const language = detectLanguage(fence[2] ?? '');
      this.#fence = { marker: fence[1] ?? '```', language };
      out += color ? `\u001b[2m┌ ${fence[2] ?? ''}\u001b[22m\n` : `${line.trim()}\n`;
      return out;
    }
    if (line.trimStart().startsWith('|')) {
      this.#table.push(line);
      return '';
    }
    let out = this.#flushTable();
    if (line.trim() === '') {
      this.#blankPending = false;
      return `${out}\n`;
    }
    const heading = /^\s*(#{1,6})\s+(.*?)\s*#*\s*$/u.exec(line);
    if (heading !== null) {
      const text = heading[2] ?? '';
      const level = heading[1]?.length ?? 1;
      // A heading right under other text (a tool card, a paragraph) gets a blank line above it.
      if (this.#lines > 0 && !this.#lastBlank) out += '\n';
      out += color
        ? `${level <= 2 ? '\u001b[1;4m' : '\u001b[1m'}${stripInline(text)}\u001b[0m\n`
        : `${line.trim()}\n`;
      return out;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/u.test(line))
      return `${out}${this.#paint(true, ['\u001b[2m', '\u001b[22m'], '─'.repeat(Math.min(width, 60)))}\n`;
    // A held line that turned out to be prose (e.g. "`code` first").
    this.#line = line;
    this.#kind = LIST.test(line) ? 'list' : 'paragraph';
    out += this.#startProse();
    out += this.#words(this.#line.slice(this.#emitted));
    this.#reset();
    return `${out}${this.#closeStyles()}\n`;
  }

  #codeLine(line: string): string {
    const language = this.#fence?.language ?? null;
    if (!this.options.color) return `    ${line}`;
    const body =
      language === null
        ? line
        : tokenize(line, language)
            .map((t) => (TOKEN_COLOR[t.type] === '' ? t.text : `${TOKEN_COLOR[t.type]}${t.text}\u001b[0m`))
            .join('');
    return `\u001b[2m│\u001b[22m ${body}`;
  }

  #flushTable(): string {
    if (this.#table.length === 0) return '';
    const rows = this.#table;
    this.#table = [];
    const cells = rows.map((row) =>
      row
        .trim()
        .replace(/^\|/u, '')
        .replace(/\|$/u, '')
        .split('|')
        .map((c) => c.trim()),
    );
    const separator = rows.findIndex((row) => TABLE_SEPARATOR.test(row));
    const body = cells.filter((_, i) => i !== separator);
    const columns = Math.max(...body.map((r) => r.length));
    const widths = Array.from({ length: columns }, (_, c) =>
      Math.max(1, ...body.map((r) => visibleWidth(stripInline(r[c] ?? '')))),
    );
    const total = widths.reduce((a, b) => a + b, 0) + 3 * (columns - 1);
    if (total > this.#width()) return `${rows.join('\n')}\n`;
    const color = this.options.color;
    const lines = body.map((row, r) => {
      const line = widths
        .map((w, c) => {
          const text = stripInline(row[c] ?? '');
          return text + ' '.repeat(Math.max(0, w - visibleWidth(text)));
        })
        .join(color ? ' \u001b[2m│\u001b[22m ' : ' | ');
      return r === 0 && separator === 1 && color ? `\u001b[1m${line}\u001b[22m` : line;
    });
    if (separator === 1) {
      const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
      lines.splice(1, 0, color ? `\u001b[2m${rule}\u001b[22m` : rule);
    }
    return `${lines.join('\n')}\n`;
  }
}

function trailingPunctuation(word: string): number {
  return /[.,;:!?)]*$/u.exec(word)?.[0].length ?? 0;
}

/** Drops inline markers for places drawn without styles (headings, table cells). */
function stripInline(text: string): string {
  return text.replace(/\*\*(.+?)\*\*/gu, '$1').replace(/`([^`]+)`/gu, '$1');
}
