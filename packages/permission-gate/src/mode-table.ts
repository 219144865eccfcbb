import type { Capability, Decision, PermissionMode } from './types.js';

/** What each mode decides per capability when nothing more specific does (CONTRACTS.md §4). */
export const MODE_TABLE: Readonly<Record<PermissionMode, Readonly<Record<Capability, Decision>>>> =
  Object.freeze({
    default: Object.freeze({ read: 'allow', write: 'ask', exec: 'ask', net: 'ask' }),
    plan: Object.freeze({ read: 'allow', write: 'deny', exec: 'deny', net: 'deny' }),
    accept_edits: Object.freeze({ read: 'allow', write: 'allow', exec: 'ask', net: 'ask' }),
    bypass: Object.freeze({ read: 'allow', write: 'allow', exec: 'allow', net: 'allow' }),
    dont_ask: Object.freeze({ read: 'allow', write: 'deny', exec: 'deny', net: 'deny' }),
  } satisfies Record<PermissionMode, Record<Capability, Decision>>);

/** The mode table's decision for one mode and capability. */
export function modeDecision(mode: PermissionMode, capability: Capability): Decision {
  return MODE_TABLE[mode][capability];
}
