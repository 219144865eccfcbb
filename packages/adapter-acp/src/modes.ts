import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from '@codeagent/permission-gate';
import { assertNever } from '@codeagent/render-intent';

function describe(mode: PermissionMode): { name: string; description: string } {
  switch (mode) {
    case 'default':
      return { name: 'Default', description: 'Reads run; edits, commands and network access ask first' };
    case 'plan':
      return { name: 'Plan', description: 'Read-only: edits, commands and network access are refused' };
    case 'accept_edits':
      return {
        name: 'Accept edits',
        description: 'Reads and file edits run; commands and network access ask first',
      };
    case 'bypass':
      return {
        name: 'Bypass permissions',
        description: 'Everything runs without asking (deny rules still apply)',
      };
    case 'dont_ask':
      return { name: "Don't ask", description: 'Reads run; anything that would ask is refused' };
    default:
      return assertNever(mode, 'adapter-acp permission mode');
  }
}

/** The permission-gate modes as ACP session modes, ids spelled as the gate spells them. */
export const ACP_SESSION_MODES: readonly SessionMode[] = PERMISSION_MODES.map((id) => ({
  id,
  ...describe(id),
}));

/** The `modes` field of a `session/new` or `session/load` response. */
export function sessionModeState(current: PermissionMode): SessionModeState {
  return { currentModeId: current, availableModes: ACP_SESSION_MODES.map((m) => ({ ...m })) };
}

/** Narrows an ACP mode id to a permission mode. */
export function toPermissionMode(modeId: string): PermissionMode | null {
  return isPermissionMode(modeId) ? modeId : null;
}
