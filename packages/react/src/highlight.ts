// Loaded only through `import()` from the code renderer: shiki stays off the critical path, and each grammar
// is its own `import()` so that a bundler with code splitting loads only the languages actually shown.
import type { HighlighterCore, LanguageRegistration } from 'shiki/core';
import { createHighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import githubDark from 'shiki/themes/github-dark.mjs';
import githubLight from 'shiki/themes/github-light.mjs';

/** One highlighted token: its text and the theme colours as CSS custom properties. */
export interface HighlightToken {
  /** The token text. */
  content: string;
  /** `--shiki-light` / `--shiki-dark` colours (from the bundled themes, never from input). */
  style: Record<string, string>;
}

type Grammar = { default: LanguageRegistration[] };

const GRAMMARS: Readonly<Record<string, () => Promise<Grammar>>> = {
  bash: () => import('shiki/langs/bash.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  jsx: () => import('shiki/langs/jsx.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
};

let core: Promise<HighlighterCore> | undefined;
const loaded = new Map<string, Promise<void>>();

function highlighter(): Promise<HighlighterCore> {
  core ??= createHighlighterCore({
    themes: [githubLight, githubDark],
    langs: [],
    // The JavaScript regex engine: no WebAssembly, no eval, so it runs under a strict CSP.
    engine: createJavaScriptRegexEngine(),
  });
  return core;
}

async function ensureLanguage(h: HighlighterCore, lang: string): Promise<void> {
  let pending = loaded.get(lang);
  if (pending === undefined) {
    const load = GRAMMARS[lang];
    if (load === undefined || !Object.hasOwn(GRAMMARS, lang)) throw new Error(`no grammar for ${lang}`);
    pending = load().then((m) => h.loadLanguage(...m.default));
    loaded.set(lang, pending);
  }
  await pending;
}

/** Tokenises `code` as `lang` (one of the bundled grammars) with the light and dark theme colours. */
export async function highlight(code: string, lang: string): Promise<HighlightToken[][]> {
  const h = await highlighter();
  await ensureLanguage(h, lang);
  const result = h.codeToTokens(code, {
    lang,
    themes: { light: 'github-light', dark: 'github-dark' },
    defaultColor: false,
    tokenizeMaxLineLength: 2000,
    tokenizeTimeLimit: 500,
  });
  return result.tokens.map((line) =>
    line.map((t) => ({ content: t.content, style: { ...(t.htmlStyle ?? {}) } })),
  );
}

/** What {@link serveHighlighter} listens on and answers through: a worker's global scope fits. */
export interface HighlightPort {
  /** Subscribes to requests. */
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  /** Sends an answer. */
  postMessage(message: unknown): void;
}

/**
 * Answers highlight requests from `workerHighlighter` (main thread) inside a worker:
 * `serveHighlighter(self)` in a module worker that imports `@codeagent/react/highlight`. Tokenising then never
 * blocks the page; a request for a language without a bundled grammar (or any failure) answers `null`.
 */
export function serveHighlighter(port: HighlightPort): void {
  port.addEventListener('message', (event) => {
    const data = event.data as { id?: unknown; code?: unknown; lang?: unknown } | null;
    if (typeof data !== 'object' || data === null || typeof data.id !== 'number') return;
    const { id, code, lang } = data;
    if (typeof code !== 'string' || typeof lang !== 'string') {
      port.postMessage({ id, lines: null });
      return;
    }
    highlight(code, lang).then(
      (lines) => port.postMessage({ id, lines }),
      () => port.postMessage({ id, lines: null }),
    );
  });
}
