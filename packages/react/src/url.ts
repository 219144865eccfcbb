/** Schemes a link may use; everything else (javascript:, data:, vbscript:, file:, blob:...) is dropped. */
const SAFE_SCHEMES: readonly string[] = ['http', 'https', 'mailto'];

// Browsers drop ASCII tab/newline anywhere in a URL and trim C0 controls and spaces at its ends:
// `java\tscript:` is `javascript:`. Remove them all before looking at the scheme.
const URL_IGNORED = /[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/**
 * The link policy of every renderer: returns the URL to put in `href` when it is `http:`, `https:`,
 * `mailto:` or relative (no scheme), else `undefined`. Controls and invisible characters are removed first,
 * so that no spelling of `javascript:` or `data:` survives.
 */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  const cleaned = url.replace(URL_IGNORED, '');
  if (cleaned === '') return undefined;
  const colon = cleaned.indexOf(':');
  const end = cleaned.search(/[/?#]/);
  if (colon === -1 || (end !== -1 && colon > end)) return cleaned; // relative: no scheme
  const scheme = cleaned.slice(0, colon).toLowerCase();
  return SAFE_SCHEMES.includes(scheme) ? cleaned : undefined;
}
