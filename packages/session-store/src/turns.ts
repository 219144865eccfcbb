import { hostname } from 'node:os';
import type { SessionRecord, SessionStore } from './types.js';

/** The owner string of this process: `<pid>@<host>`. */
export function processOwner(): string {
  return `${process.pid}@${hostname()}`;
}

/**
 * Whether the process named by a `<pid>@<host>` owner still runs: `true` or `false` for an owner on this host,
 * `undefined` when it cannot be told (another host, or another shape of owner).
 */
export function isOwnerAlive(owner: string | null): boolean | undefined {
  const match = owner === null ? null : /^(\d+)@(.+)$/.exec(owner);
  if (!match || match[2] !== hostname()) return undefined;
  const pid = Number(match[1]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The running turn of `record` when nobody runs it any more, else `null`: its owner is a process of this host that
 * is gone, or (with `isLive`) an owner the host knows to be gone (a server instance whose heartbeat stopped).
 * The host then ends it as `interrupted` ({@link SessionStore.endTurn}).
 */
export function staleRunningTurn(
  record: SessionRecord,
  isLive: (owner: string | null) => boolean | undefined = isOwnerAlive,
): SessionRecord['turn'] {
  const turn = record.turn;
  if (turn?.state !== 'running') return null;
  return isLive(turn.owner) === false ? turn : null;
}
