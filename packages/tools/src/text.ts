import path from 'node:path';

/** Formats lines like `cat -n`: a right-aligned 6-wide line number, a tab, the line. */
export function numberLines(lines: readonly string[], firstLine = 1): string {
  return lines.map((line, i) => `${String(firstLine + i).padStart(6, ' ')}\t${line}`).join('\n');
}

/** Splits text into lines (LF or CRLF); a trailing newline does not add an empty last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Cuts a line to `max` UTF-16 units (never inside a surrogate pair) with a marker saying how much was cut.
 * `fullLength` is the line's real length when `line` is already a prefix of it (streamed reads).
 */
export function truncateLine(line: string, max: number, fullLength = line.length): string {
  if (fullLength <= max) return line;
  let end = Math.min(max, line.length);
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${line.slice(0, end)}… [${fullLength - end} more characters]`;
}

// ESC-introduced sequences: CSI (incl. SGR), OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, and two-byte escapes.
const ESCAPES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b[PX^_]|[\u0090\u0098\u009e\u009f])[^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?/g;
// C0 controls except TAB and LF, DEL, and C1 controls.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Turns terminal output into plain text for the model: strips every escape sequence
 * (colours included) and control character except `\n` and `\t`, and applies carriage
 * returns the way a terminal would (a progress bar keeps only its last state).
 */
export function toPlainText(output: string): string {
  const noEscapes = output.replace(ESCAPES, '');
  const lines = noEscapes.split('\n').map((line) => {
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    const cr = trimmed.lastIndexOf('\r');
    return cr === -1 ? trimmed : trimmed.slice(cr + 1);
  });
  return lines.join('\n').replace(CONTROLS, '');
}

/** Whether a byte sample looks binary: it contains a NUL byte or mostly non-text control bytes. */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let suspicious = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) suspicious += 1;
  }
  return suspicious / sample.length > 0.1;
}

/** Length of the longest prefix of `buf` that does not end inside a UTF-8 sequence. */
export function utf8CompleteLength(buf: Uint8Array): number {
  const len = buf.length;
  for (let back = 1; back <= Math.min(4, len); back += 1) {
    const byte = buf[len - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return back < need ? len - back : len;
  }
  return len;
}

/** Smallest index `>= start` that begins a UTF-8 sequence in `buf`. */
export function utf8SafeStart(buf: Uint8Array, start: number): number {
  let i = Math.max(0, start);
  let steps = 0;
  while (i < buf.length && steps < 4 && ((buf[i] ?? 0) & 0xc0) === 0x80) {
    i += 1;
    steps += 1;
  }
  return i;
}

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  json: 'json',
  jsonc: 'jsonc',
  json5: 'json5',
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'mdx',
  py: 'python',
  pyi: 'python',
  r: 'r',
  rmd: 'rmd',
  qmd: 'markdown',
  rs: 'rust',
  go: 'go',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  scala: 'scala',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  cs: 'csharp',
  fs: 'fsharp',
  swift: 'swift',
  m: 'objective-c',
  rb: 'ruby',
  php: 'php',
  pl: 'perl',
  lua: 'lua',
  sh: 'bash',
  bash: 'bash',
  zsh: 'zsh',
  fish: 'fish',
  ps1: 'powershell',
  sql: 'sql',
  html: 'html',
  htm: 'html',
  xml: 'xml',
  svg: 'xml',
  css: 'css',
  scss: 'scss',
  sass: 'sass',
  less: 'less',
  vue: 'vue',
  svelte: 'svelte',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  cfg: 'ini',
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  mk: 'makefile',
  cmake: 'cmake',
  proto: 'proto',
  graphql: 'graphql',
  gql: 'graphql',
  tex: 'latex',
  ex: 'elixir',
  exs: 'elixir',
  erl: 'erlang',
  hs: 'haskell',
  ml: 'ocaml',
  clj: 'clojure',
  dart: 'dart',
  zig: 'zig',
  nix: 'nix',
  tf: 'hcl',
  hcl: 'hcl',
  diff: 'diff',
  patch: 'diff',
  csv: 'csv',
  txt: 'text',
};

/** A code-highlighting language id guessed from a file name (`text` when unknown). */
export function languageFromPath(filePath: string): string {
  const base = path.basename(filePath).toLowerCase();
  if (base === 'dockerfile' || base.startsWith('dockerfile.')) return 'dockerfile';
  if (base === 'makefile' || base === 'gnumakefile') return 'makefile';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return 'text';
  return LANGUAGES[base.slice(dot + 1)] ?? 'text';
}
