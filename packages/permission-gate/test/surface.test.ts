import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public surface', () => {
  it('pins the runtime export names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'BUILTIN_TOOL_META',
      'CAPABILITIES',
      'DECISIONS',
      'DEFAULT_PROTECTED_PATHS',
      'GlobSyntaxError',
      'MODE_TABLE',
      'PERMISSION_MODES',
      'PRIMARY_ARGUMENT_KEYS',
      'PermissionGateError',
      'READ_PATH_TOOLS',
      'analyseShellCommand',
      'compileGlob',
      'createPermissionGate',
      'createToolMetaRegistry',
      'describeEvaluation',
      'describeGrantScope',
      'describeUnknownRuleTool',
      'findUnknownRuleTools',
      'hasShellMetacharacters',
      'installPermissionGate',
      'isCapability',
      'isModeAtLeastAsStrict',
      'isPermissionGate',
      'isPermissionMode',
      'isShellGrammarLoaded',
      'mergePermissionConfigs',
      'modeDecision',
      'narrowPermissionConfig',
      'normalisePath',
      'parsePermissionConfig',
      'parseRule',
      'permissionDeniedMessage',
      'safeParseRule',
      'uninstallPermissionGate',
      'validatePermissionConfig',
    ]);
  });

  it('pins the ./shell and ./node entries', async () => {
    expect(Object.keys(await import('../src/shell/load.js')).sort()).toEqual([
      'isShellGrammarLoaded',
      'loadShellGrammar',
      'useShellParser',
    ]);
    expect(Object.keys(await import('../src/node.js')).sort()).toEqual(['loadInstalledShellGrammar']);
  });

  it('pins the wire vocabularies', () => {
    expect(api.CAPABILITIES).toEqual(['read', 'write', 'exec', 'net']);
    expect(api.PERMISSION_MODES).toEqual(['default', 'plan', 'accept_edits', 'bypass', 'dont_ask']);
    expect(api.DECISIONS).toEqual(['allow', 'ask', 'deny']);
    expect(api.PRIMARY_ARGUMENT_KEYS).toEqual(['command', 'file_path', 'path', 'pattern', 'url']);
    expect(Object.isFrozen(api.CAPABILITIES) && Object.isFrozen(api.MODE_TABLE)).toBe(true);
  });
});
