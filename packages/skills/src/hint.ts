import type { SkillDiscoveryOptions, SkillMeta } from './discovery.js';
import { listSkillsMeta } from './discovery.js';

/** Options for {@link buildSkillHint}. */
export interface SkillHintOptions extends SkillDiscoveryOptions {
  /** Token budget for the whole block, estimated with {@link estimateTokens} (default 1000). */
  readonly maxTokens?: number;
}

/** A formatted hint and what went into it. */
export interface SkillHint {
  /** The `<available_skills>` block, or `''` when there is nothing to list or nothing fits. */
  readonly text: string;
  /** Names of the skills listed, in order. */
  readonly included: readonly string[];
  /** How many eligible skills were left out for the budget. */
  readonly omitted: number;
  /** Estimated tokens of `text`. */
  readonly tokens: number;
}

/** Default token budget of the hint. */
export const DEFAULT_HINT_MAX_TOKENS = 1000;

/** Token estimate used for budgets: `ceil(length / 4)` over UTF-16 code units (about 4 characters per token). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Makes untrusted text safe inside the hint block: lone surrogates become U+FFFD, bidi and zero-width
 * controls are removed, other control characters (ANSI/OSC escapes included) and line breaks become spaces,
 * whitespace is collapsed, then `& < > " '` are XML-escaped so nothing can open or close a tag.
 */
export function escapeHintText(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(INVISIBLE, '')
    .replace(CONTROL, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const HEADER = '<available_skills>\n';
const FOOTER = '</available_skills>';

function entry(skill: Pick<SkillMeta, 'name' | 'description'>): string {
  return `<skill><name>${escapeHintText(skill.name)}</name><description>${escapeHintText(skill.description)}</description></skill>\n`;
}

function marker(omitted: number): string {
  const noun = omitted === 1 ? 'skill is' : 'skills are';
  return `<skills_omitted count="${omitted}">${omitted} more ${noun} available but not listed (token budget).</skills_omitted>\n`;
}

/**
 * Formats skills (in the given order, `auto-trigger: false` ones excluded) into an `<available_skills>` block
 * that fits `maxTokens`, cutting only between whole skills and ending with a count of the omitted ones.
 */
export function formatSkillHint(
  skills: readonly Pick<SkillMeta, 'name' | 'description' | 'autoTrigger'>[],
  options: { readonly maxTokens?: number } = {},
): SkillHint {
  const requested = options.maxTokens ?? DEFAULT_HINT_MAX_TOKENS;
  // NaN falls back to the default; +Infinity means no budget; negative budgets fit nothing.
  const maxTokens = Number.isNaN(requested) ? DEFAULT_HINT_MAX_TOKENS : requested;
  const budget = Number.isFinite(maxTokens)
    ? Math.max(0, Math.floor(maxTokens)) * 4
    : Number.POSITIVE_INFINITY;
  const eligible = skills.filter((s) => s.autoTrigger);
  if (eligible.length === 0) return { text: '', included: [], omitted: 0, tokens: 0 };
  // Entries are escaped lazily: with thousands of skills only the ones that can fit are formatted.
  const entries: string[] = [];
  let best = -1;
  let used = HEADER.length + FOOTER.length;
  for (let k = 0; k <= eligible.length; k++) {
    if (k > 0) {
      const e = entry(eligible[k - 1] as Pick<SkillMeta, 'name' | 'description'>);
      entries.push(e);
      used += e.length;
    }
    const omitted = eligible.length - k;
    const total = used + (omitted > 0 ? marker(omitted).length : 0);
    if (total <= budget) best = k;
    else if (used > budget) break;
  }
  if (best < 0) return { text: '', included: [], omitted: eligible.length, tokens: 0 };
  const omitted = eligible.length - best;
  const text = HEADER + entries.slice(0, best).join('') + (omitted > 0 ? marker(omitted) : '') + FOOTER;
  return {
    text,
    included: eligible.slice(0, best).map((s) => s.name),
    omitted,
    tokens: estimateTokens(text),
  };
}

/** Builds the `<available_skills>` block for the system prompt from the discovered skills, within `maxTokens`. */
export async function buildSkillHint(options: SkillHintOptions): Promise<string> {
  const { skills } = await listSkillsMeta(options);
  return formatSkillHint(skills, options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens })
    .text;
}
