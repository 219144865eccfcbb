import { paint, type Style } from './ansi.js';

/** Token classes the small highlighter emits. */
export type TokenType = 'keyword' | 'constant' | 'string' | 'comment' | 'number' | 'plain';

/** One highlighted run of source text. */
export interface Token {
  /** Class of the run. */
  readonly type: TokenType;
  /** The source text of the run (may span lines for block comments and multi-line strings). */
  readonly text: string;
}

interface LangSpec {
  readonly keywords: ReadonlySet<string>;
  readonly constants: ReadonlySet<string>;
  readonly lineComments: readonly string[];
  readonly blockComments: ReadonlyArray<readonly [string, string]>;
  /** Quote characters; those in `multiline` may span lines. */
  readonly quotes: string;
  readonly multiline: string;
  readonly tripleQuotes: boolean;
}

const words = (s: string): ReadonlySet<string> => new Set(s.split(' '));

const JS_KEYWORDS =
  'break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield async await as';
const TS_EXTRA =
  ' interface type enum implements declare namespace readonly private protected public abstract keyof satisfies';

/** Languages the small tokenizer knows. */
export type HighlightLanguage =
  | 'javascript'
  | 'typescript'
  | 'python'
  | 'r'
  | 'shell'
  | 'json'
  | 'go'
  | 'rust';

const SPECS: Readonly<Record<HighlightLanguage, LangSpec>> = {
  javascript: {
    keywords: words(JS_KEYWORDS),
    constants: words('true false null undefined NaN Infinity'),
    lineComments: ['//'],
    blockComments: [['/*', '*/']],
    quotes: '"\'`',
    multiline: '`',
    tripleQuotes: false,
  },
  typescript: {
    keywords: words(JS_KEYWORDS + TS_EXTRA),
    constants: words('true false null undefined NaN Infinity'),
    lineComments: ['//'],
    blockComments: [['/*', '*/']],
    quotes: '"\'`',
    multiline: '`',
    tripleQuotes: false,
  },
  python: {
    keywords: words(
      'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case',
    ),
    constants: words('True False None'),
    lineComments: ['#'],
    blockComments: [],
    quotes: '"\'',
    multiline: '',
    tripleQuotes: true,
  },
  r: {
    keywords: words('if else repeat while function for in next break return library require'),
    constants: words('TRUE FALSE NULL NA NA_integer_ NA_real_ NA_character_ Inf NaN T F'),
    lineComments: ['#'],
    blockComments: [],
    quotes: '"\'',
    multiline: '"\'',
    tripleQuotes: false,
  },
  shell: {
    keywords: words(
      'if then else elif fi case esac for while until do done in function select return exit export local readonly declare set unset source alias echo cd',
    ),
    constants: words('true false'),
    lineComments: ['#'],
    blockComments: [],
    quotes: '"\'',
    multiline: '"\'',
    tripleQuotes: false,
  },
  json: {
    keywords: words(''),
    constants: words('true false null'),
    lineComments: [],
    blockComments: [],
    quotes: '"',
    multiline: '',
    tripleQuotes: false,
  },
  go: {
    keywords: words(
      'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var',
    ),
    constants: words('true false nil iota'),
    lineComments: ['//'],
    blockComments: [['/*', '*/']],
    quotes: '"\'`',
    multiline: '`',
    tripleQuotes: false,
  },
  rust: {
    keywords: words(
      'as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while',
    ),
    constants: words('true false None Some Ok Err'),
    lineComments: ['//'],
    blockComments: [['/*', '*/']],
    quotes: '"',
    multiline: '"',
    tripleQuotes: false,
  },
};

const ALIASES: Readonly<Record<string, HighlightLanguage>> = {
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  javascript: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  typescript: 'typescript',
  py: 'python',
  python: 'python',
  r: 'r',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  shell: 'shell',
  console: 'shell',
  json: 'json',
  jsonc: 'json',
  go: 'go',
  golang: 'go',
  rs: 'rust',
  rust: 'rust',
};

/** Maps a language name or a file name's extension to a known language, or `null`. */
export function detectLanguage(lang: unknown, filename?: unknown): HighlightLanguage | null {
  if (typeof lang === 'string') {
    const known = ALIASES[lang.trim().toLowerCase()];
    if (known) return known;
  }
  if (typeof filename === 'string') {
    const dot = filename.lastIndexOf('.');
    if (dot >= 0) return ALIASES[filename.slice(dot + 1).toLowerCase()] ?? null;
  }
  return null;
}

const IDENT_START = /[A-Za-z_$]/;
const IDENT_RE = /[A-Za-z_$][\w$]*/y;
const NUMBER_RE = /(?:0[xXbBoO][\da-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)[a-zA-Z]*/y;

/** Splits source text into highlight tokens; concatenating their `text` gives back the input exactly. */
export function tokenize(source: string, language: HighlightLanguage): Token[] {
  const spec = SPECS[language];
  const tokens: Token[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain !== '') tokens.push({ type: 'plain', text: plain });
    plain = '';
  };
  const push = (type: TokenType, text: string): void => {
    flush();
    tokens.push({ type, text });
  };
  let i = 0;
  const n = source.length;
  outer: while (i < n) {
    const ch = source[i] as string;
    for (const open of spec.lineComments) {
      if (source.startsWith(open, i)) {
        const nl = source.indexOf('\n', i);
        const end = nl < 0 ? n : nl;
        push('comment', source.slice(i, end));
        i = end;
        continue outer;
      }
    }
    for (const [open, close] of spec.blockComments) {
      if (source.startsWith(open, i)) {
        const stop = source.indexOf(close, i + open.length);
        const end = stop < 0 ? n : stop + close.length;
        push('comment', source.slice(i, end));
        i = end;
        continue outer;
      }
    }
    if (spec.quotes.includes(ch)) {
      const triple = spec.tripleQuotes && source.startsWith(ch.repeat(3), i);
      const delim = triple ? ch.repeat(3) : ch;
      const multiline = triple || spec.multiline.includes(ch);
      let j = i + delim.length;
      while (j < n) {
        const c = source[j];
        if (c === '\\') {
          j += 2;
          continue;
        }
        if (c === '\n' && !multiline) break;
        if (source.startsWith(delim, j)) {
          j += delim.length;
          break;
        }
        j++;
      }
      const end = Math.min(j, n);
      push('string', source.slice(i, end));
      i = end;
      continue;
    }
    if (ch >= '0' && ch <= '9' && !/[\w$]/.test(source[i - 1] ?? ' ')) {
      NUMBER_RE.lastIndex = i;
      const m = NUMBER_RE.exec(source);
      if (m) {
        push('number', m[0]);
        i += m[0].length;
        continue;
      }
    }
    if (IDENT_START.test(ch)) {
      IDENT_RE.lastIndex = i;
      const word = (IDENT_RE.exec(source) as RegExpExecArray)[0];
      if (spec.keywords.has(word)) push('keyword', word);
      else if (spec.constants.has(word)) push('constant', word);
      else plain += word;
      i += word.length;
      continue;
    }
    plain += ch;
    i++;
  }
  flush();
  return tokens;
}

const TOKEN_STYLE: Readonly<Record<TokenType, Style | null>> = {
  keyword: 'magenta',
  constant: 'yellow',
  number: 'yellow',
  string: 'green',
  comment: 'gray',
  plain: null,
};

/** Highlights sanitised, SGR-free source text; returns it unchanged when colour is off. */
export function highlight(source: string, language: HighlightLanguage | null, color: boolean): string {
  if (!color || language === null) return source;
  let out = '';
  for (const token of tokenize(source, language)) {
    const style = TOKEN_STYLE[token.type];
    out += style ? paint(true, token.text, style) : token.text;
  }
  return out;
}
