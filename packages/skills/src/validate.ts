import { isRecord } from '@codeagent/artifact-schema/internal';

/** Why a skill file produced a warning. */
export type SkillWarningCode =
  | 'missing-frontmatter'
  | 'unterminated-frontmatter'
  | 'invalid-yaml'
  | 'invalid-frontmatter'
  | 'invalid-field'
  | 'name-mismatch'
  | 'name-from-folder'
  | 'long-description'
  | 'recovered-yaml'
  | 'duplicate-name'
  | 'empty-body'
  | 'not-utf8'
  | 'too-large'
  | 'unreadable';

/** A problem found while discovering skills; never fatal. */
export interface SkillWarning {
  /** Absolute path of the file or directory concerned. */
  readonly file: string;
  /** Frontmatter field concerned, when there is one (e.g. `name`). */
  readonly field?: string;
  /** Stable warning code. */
  readonly code: SkillWarningCode;
  /** Human-readable explanation. */
  readonly reason: string;
  /** `true` when the skill was left out because of this problem; `false` when it was kept. */
  readonly skipped: boolean;
}

/** Frontmatter fields of a valid skill, in camelCase. */
export interface SkillFrontmatter {
  /** Skill name: 1-64 chars of `a-z`, `0-9` and single inner hyphens. */
  readonly name: string;
  /** What the skill does and when to use it (1-1024 chars). */
  readonly description: string;
  /** Hint shown to users for the slash command's arguments (`argument-hint`). */
  readonly argumentHint?: string;
  /** Tools the skill expects to use (`allowed-tools`), split into entries. */
  readonly allowedTools?: readonly string[];
  /**
   * Whether the model may invoke the skill: it is advertised in the hint and loadable through `use_skill`
   * (default `true`; `false` with `auto-trigger: false` or Claude Code's `disable-model-invocation: true`).
   * The user's `/name` slash command runs it either way.
   */
  readonly autoTrigger: boolean;
  /** Licence name or reference (`license`). */
  readonly license?: string;
  /** Environment requirements (`compatibility`, 1-500 chars). */
  readonly compatibility?: string;
  /** Free-form string key/value metadata (`metadata`). */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** Maximum length of a skill name (Agent Skills format). */
export const MAX_NAME_LENGTH = 64;
/**
 * Maximum length of a skill description in the Agent Skills format. A longer one is still read (as Claude Code
 * does) with a `long-description` warning: strict where we produce, tolerant where we read.
 */
export const MAX_DESCRIPTION_LENGTH = 1024;
const MAX_COMPATIBILITY_LENGTH = 500;

const NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Whether `name` is a valid skill name: 1-64 of `a-z0-9`, hyphens only between characters, never doubled. */
export function isValidSkillName(name: string): boolean {
  return name.length >= 1 && name.length <= MAX_NAME_LENGTH && NAME_RE.test(name);
}

type Validation =
  | { ok: true; value: SkillFrontmatter; warnings: SkillWarning[] }
  | { ok: false; warnings: SkillWarning[] };

function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Splits an `allowed-tools` string on commas / whitespace outside parentheses (`Bash(git add:*) Read`). */
export function splitAllowedTools(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (current) out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * Validates parsed frontmatter against the Agent Skills format, reading what peers accept: a missing `name`
 * falls back to the folder name, a description over {@link MAX_DESCRIPTION_LENGTH} is kept, `argument-hint` is also
 * read from `metadata`, and `disable-model-invocation: true` means `autoTrigger: false` (each with a warning).
 * An invalid `name` or a missing `description` skips the skill; a bad optional field is dropped with a warning.
 */
export function validateFrontmatter(data: unknown, file: string, folderName: string): Validation {
  const warnings: SkillWarning[] = [];
  const skip = (
    field: string | undefined,
    reason: string,
    code: SkillWarningCode = 'invalid-field',
  ): Validation => {
    warnings.push(
      field === undefined
        ? { file, code, reason, skipped: true }
        : { file, field, code, reason, skipped: true },
    );
    return { ok: false, warnings };
  };
  const drop = (field: string, reason: string): void => {
    warnings.push({ file, field, code: 'invalid-field', reason: `${reason}; field ignored`, skipped: false });
  };
  if (!isRecord(data)) {
    return skip(undefined, 'frontmatter must be a YAML mapping', 'invalid-frontmatter');
  }
  const { description } = data;
  let name = data.name;
  if (name === undefined && isValidSkillName(folderName)) {
    name = folderName;
    warnings.push({
      file,
      field: 'name',
      code: 'name-from-folder',
      reason: `no "name" in the frontmatter; the folder name "${folderName}" is used`,
      skipped: false,
    });
  }
  if (typeof name !== 'string')
    return skip('name', 'required string field "name" is missing or not a string');
  if (!isValidSkillName(name)) {
    return skip(
      'name',
      `"name" must be 1-${MAX_NAME_LENGTH} characters of lowercase letters, digits and single inner hyphens`,
    );
  }
  if (typeof description !== 'string' || description.trim() === '') {
    return skip('description', 'required string field "description" is missing, empty or not a string');
  }
  const descriptionLength = codePointLength(description);
  if (descriptionLength > MAX_DESCRIPTION_LENGTH) {
    warnings.push({
      file,
      field: 'description',
      code: 'long-description',
      reason: `"description" is ${descriptionLength} characters, over the ${MAX_DESCRIPTION_LENGTH} of the Agent Skills format; kept`,
      skipped: false,
    });
  }
  if (name !== folderName) {
    warnings.push({
      file,
      field: 'name',
      code: 'name-mismatch',
      reason: `"name" (${name}) does not match the folder name (${folderName}); the skill is kept under "${name}"`,
      skipped: false,
    });
  }
  const value: {
    name: string;
    description: string;
    argumentHint?: string;
    allowedTools?: readonly string[];
    autoTrigger: boolean;
    license?: string;
    compatibility?: string;
    metadata?: Readonly<Record<string, string>>;
  } = { name, description: description.trim(), autoTrigger: true };

  const hint = data['argument-hint'];
  if (hint !== undefined && hint !== null) {
    if (typeof hint === 'string') value.argumentHint = hint;
    else drop('argument-hint', '"argument-hint" must be a string');
  }
  const tools = data['allowed-tools'];
  if (tools !== undefined && tools !== null) {
    if (typeof tools === 'string') value.allowedTools = splitAllowedTools(tools);
    else if (Array.isArray(tools) && tools.every((t): t is string => typeof t === 'string')) {
      value.allowedTools = tools.map((t) => t.trim()).filter((t) => t !== '');
    } else drop('allowed-tools', '"allowed-tools" must be a string or a list of strings');
  }
  const auto = data['auto-trigger'];
  if (auto !== undefined && auto !== null) {
    if (typeof auto === 'boolean') value.autoTrigger = auto;
    else drop('auto-trigger', '"auto-trigger" must be true or false');
  }
  // Claude Code's spelling of the same switch; either one turning model invocation off wins.
  const disabled = data['disable-model-invocation'];
  if (disabled !== undefined && disabled !== null) {
    if (typeof disabled === 'boolean') {
      if (disabled) value.autoTrigger = false;
    } else drop('disable-model-invocation', '"disable-model-invocation" must be true or false');
  }
  const license = data.license;
  if (license !== undefined && license !== null) {
    if (typeof license === 'string') value.license = license;
    else drop('license', '"license" must be a string');
  }
  const compat = data.compatibility;
  if (compat !== undefined && compat !== null) {
    if (
      typeof compat === 'string' &&
      compat.length > 0 &&
      codePointLength(compat) <= MAX_COMPATIBILITY_LENGTH
    ) {
      value.compatibility = compat;
    } else
      drop('compatibility', `"compatibility" must be a string of 1-${MAX_COMPATIBILITY_LENGTH} characters`);
  }
  const meta = data.metadata;
  if (meta !== undefined && meta !== null) {
    if (isRecord(meta)) {
      const out: Record<string, string> = Object.create(null);
      let bad = false;
      for (const [k, v] of Object.entries(meta)) {
        if (typeof v === 'string') out[k] = v;
        // btw-style `metadata: {auto-trigger: false}` is read below, not reported as a bad value.
        else if (!(k === 'auto-trigger' && typeof v === 'boolean')) bad = true;
      }
      const nestedAuto = meta['auto-trigger'];
      const metaAuto = nestedAuto === 'false' ? false : nestedAuto === 'true' ? true : nestedAuto;
      if (auto === undefined && metaAuto === false) value.autoTrigger = false;
      if (bad) drop('metadata', '"metadata" values must be strings; non-string entries');
      value.metadata = out;
      // btw-style skills keep the hint under metadata; the top-level field wins when both are there.
      const nested = out['argument-hint'];
      if (value.argumentHint === undefined && nested !== undefined) value.argumentHint = nested;
    } else drop('metadata', '"metadata" must be a mapping of string keys to string values');
  }
  if (value.allowedTools) Object.freeze(value.allowedTools);
  if (value.metadata) Object.freeze(value.metadata);
  return { ok: true, value, warnings };
}
