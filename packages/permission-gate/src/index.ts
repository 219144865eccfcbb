/**
 * `@codeagent/permission-gate`: capabilities, modes, rules, async approval and provenance for agent tool
 * calls. Platform-neutral (no Node built-ins); fails closed.
 *
 * @packageDocumentation
 */

export {
  isPermissionMode,
  type ParsePermissionConfigOptions,
  type PermissionConfig,
  parsePermissionConfig,
  validatePermissionConfig,
} from './config.js';
export { type ConfigIssue, PermissionGateError, type PermissionGateErrorCode } from './errors.js';
export {
  createPermissionGate,
  describeEvaluation,
  installPermissionGate,
  isPermissionGate,
  type PermissionGate,
  type PermissionGateOptions,
  type PermissionGateTarget,
  type PermissionGateUpdate,
  uninstallPermissionGate,
} from './gate.js';
export { describeGrantScope, type GrantScope, type SessionGrant } from './grants.js';
export { compileGlob, type GlobFlavour, type GlobMatcher, GlobSyntaxError } from './glob.js';
export { permissionDeniedMessage } from './message.js';
export { MODE_TABLE, modeDecision } from './mode-table.js';
export { type NormalisedPath, normalisePath } from './paths.js';
export { DEFAULT_PROTECTED_PATHS } from './protected.js';
export { READ_PATH_TOOLS, type ReadRestriction } from './read-paths.js';
export {
  hasShellMetacharacters,
  type ParsedRule,
  PRIMARY_ARGUMENT_KEYS,
  parseRule,
  type SafeParseRuleResult,
  safeParseRule,
} from './rules.js';
export { analyseShellCommand, isShellGrammarLoaded, type ShellAnalysis } from './shell/analyse.js';
export {
  describeUnknownRuleTool,
  findUnknownRuleTools,
  isModeAtLeastAsStrict,
  mergePermissionConfigs,
  type NarrowedConfig,
  narrowPermissionConfig,
  type UnknownRuleTool,
} from './settings.js';
export {
  BUILTIN_TOOL_META,
  createToolMetaRegistry,
  isCapability,
  type ToolMetaInput,
  type ToolMetaRegistry,
} from './tool-meta.js';
export {
  type AbortSignalLike,
  type AskCallback,
  type AskContext,
  type AskGrant,
  type AskOutcome,
  type AskResult,
  CAPABILITIES,
  type Capability,
  type CheckRequest,
  type CheckResult,
  type CheckSource,
  DECISIONS,
  type Decision,
  type DecisionSource,
  type Evaluation,
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionRules,
  type RuleList,
  type ToolMeta,
  type ToolPolicy,
} from './types.js';
