export {
  DEFAULT_MAX_SKILL_BYTES,
  listSkillsMeta,
  PROJECT_SKILL_DIRS,
  SKILL_FILE,
  SkillCache,
  type SkillCacheOptions,
  type SkillDiscoveryOptions,
  type SkillList,
  type SkillMeta,
  type SkillSourceDir,
  type SkillSourceKind,
  skillDirectories,
  USER_SKILL_DIR,
  USER_SKILL_DIRS,
} from './discovery.js';
export { isSkillError, SkillError, type SkillErrorCode } from './errors.js';
export {
  buildSkillHint,
  DEFAULT_HINT_MAX_TOKENS,
  escapeHintText,
  estimateTokens,
  formatSkillHint,
  type SkillHint,
  type SkillHintOptions,
} from './hint.js';
export { loadSkillPrompt, type SkillLoadOptions, splitArguments, substituteArguments } from './load.js';
export { parseSlashCommand, type SlashCommand } from './slash.js';
export {
  listSkillNames,
  parseUseSkillInput,
  type UseSkillInput,
  type UseSkillInputSchema,
  type UseSkillTool,
  useSkillTool,
} from './tool.js';
export {
  isValidSkillName,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  type SkillFrontmatter,
  type SkillWarning,
  type SkillWarningCode,
} from './validate.js';
