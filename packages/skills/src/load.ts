import { discoverSkills, findListedSkill, readSkillBody, type SkillDiscoveryOptions } from './discovery.js';
import { SkillError } from './errors.js';

/** Options for {@link loadSkillPrompt}: discovery options plus the raw argument string. */
export interface SkillLoadOptions extends SkillDiscoveryOptions {
  /** Raw argument text (what followed the slash command name); default `''`. */
  readonly args?: string;
  /**
   * Who asks for the skill: `'user'` (a slash command; default) may run any skill, `'model'` (the `use_skill`
   * tool) only those with `autoTrigger` — a skill kept from the model is then "unknown" to it.
   */
  readonly invokedBy?: 'user' | 'model';
}

const PLACEHOLDER = /\$(?:ARGUMENTS|ARG([1-9][0-9]*))/g;

/** Splits raw arguments on runs of whitespace (no quoting), dropping empty pieces. */
export function splitArguments(args: string): string[] {
  const trimmed = args.trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}

/**
 * Substitutes `$ARGUMENTS` (the raw, trimmed args) and `$ARG1..$ARGn` (whitespace-split args) in one pass.
 * `$ARG10` is read as the tenth argument; a `$ARGn` beyond the given count (and `$ARG0`) stays literal;
 * substituted text is never rescanned. When the body has no placeholder and args are non-empty,
 * `\n\nARGUMENTS: <args>` is appended so the arguments still reach the model.
 */
export function substituteArguments(body: string, args: string): string {
  const raw = args.trim();
  const parts = splitArguments(raw);
  let used = false;
  const out = body.replace(PLACEHOLDER, (match: string, index: string | undefined) => {
    used = true;
    if (index === undefined) return raw;
    const n = Number(index);
    return n <= parts.length ? (parts[n - 1] as string) : match;
  });
  if (!used && raw !== '') return `${trimTrailingNewlines(out)}\n\nARGUMENTS: ${raw}`;
  return out;
}

// A loop rather than /\n*$/: that regex is quadratic on long runs of newlines.
function trimTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(0, end);
}

/**
 * Loads the body (without frontmatter) of the winning skill named `name`, with arguments substituted.
 * Throws a {@link SkillError} `skill-not-found` listing the available names when there is no such skill, and
 * `skill-unreadable` when the file changed into something unreadable between discovery and reading.
 */
export async function loadSkillPrompt(name: string, options: SkillLoadOptions): Promise<string> {
  const listed = findListedSkill(name, options);
  if (listed && (options.invokedBy !== 'model' || listed.skill.autoTrigger)) {
    const body = await readSkillBody(listed.skill.path, listed.cap);
    if (body.ok) return substituteArguments(body.body, options.args ?? '');
    // Unreadable since the listing: a full discovery below says what happened.
  }
  const { skills: all, cap } = await discoverSkills(options);
  const skills =
    options.invokedBy === 'model' ? new Map([...all].filter(([, meta]) => meta.autoTrigger)) : all;
  const skill = skills.get(name);
  if (!skill) {
    const available = [...skills.keys()].sort();
    const list = available.length === 0 ? 'none' : available.join(', ');
    throw new SkillError(
      'skill-not-found',
      `Unknown skill "${sanitiseForMessage(name)}". Available skills: ${list}`,
      {
        available,
      },
    );
  }
  // Bodies are read on demand (the cache keeps metadata only), so a large skill costs memory only while used.
  const body = await readSkillBody(skill.path, cap);
  if (!body.ok) {
    throw new SkillError(
      'skill-unreadable',
      `Skill "${name}" could not be read (${skill.path}): ${body.reason}`,
      {
        available: [...skills.keys()].sort(),
      },
    );
  }
  return substituteArguments(body.body, options.args ?? '');
}

/** Shortens and de-controls a model- or user-supplied name before it goes into an error message. */
function sanitiseForMessage(value: string): string {
  const clean = String(value).replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}
