import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public surface', () => {
  it('pins the export names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ACP_SESSION_MODES',
      'PromptContentError',
      'acpStopReason',
      'createAcpAgent',
      'createMemorySessionStore',
      'fenced',
      'liveOutputNotice',
      'mcpServersFromAcp',
      'plainText',
      'planEntries',
      'promptToInput',
      'serveAcp',
      'sessionModeState',
      'terminalText',
      'textBlock',
      'toPermissionMode',
      'toolCallFields',
      'toolCallNotice',
      'toolResultNotices',
      'usageUpdate',
      'visibleTitle',
    ]);
  });

  it('pins the protocol constants it relies on', () => {
    expect(api.ACP_SESSION_MODES.map((m) => m.id)).toEqual([
      'default',
      'plan',
      'accept_edits',
      'bypass',
      'dont_ask',
    ]);
    expect(api.toPermissionMode('bypass')).toBe('bypass');
    expect(api.toPermissionMode('bypassPermissions')).toBeNull();
  });
});
