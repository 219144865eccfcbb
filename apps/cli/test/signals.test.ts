import { describe, expect, it } from 'vitest';
import { killChildrenOnExit, type SignalTarget } from '../src/signals.js';

/** A process stand-in that records handlers and exits. */
function fakeProcess() {
  const handlers = new Map<string, Array<() => void>>();
  const exits: number[] = [];
  const target: SignalTarget = {
    on: (event, listener) => handlers.set(event, [...(handlers.get(event) ?? []), listener]),
    off: (event, listener) =>
      handlers.set(
        event,
        (handlers.get(event) ?? []).filter((l) => l !== listener),
      ),
    exit: ((status: number) => {
      exits.push(status);
    }) as SignalTarget['exit'],
  };
  const emit = (event: string) => {
    for (const l of handlers.get(event) ?? []) l();
  };
  return { target, emit, exits, handlers };
}

describe('killChildrenOnExit', () => {
  it('SIGTERM: TERM to the groups, KILL once they are gone, exit 143; a second signal changes nothing', async () => {
    const p = fakeProcess();
    const sent: Array<string | number> = [];
    let alive = 2;
    killChildrenOnExit(
      (signal) => {
        sent.push(signal);
        if (signal === 'SIGTERM') return alive;
        if (signal === 0) {
          alive = Math.max(0, alive - 1);
          return alive;
        }
        return 0;
      },
      { target: p.target, graceMs: 1000 },
    );
    p.emit('SIGTERM');
    p.emit('SIGHUP');
    await new Promise((r) => setTimeout(r, 150));
    expect(sent[0]).toBe('SIGTERM');
    expect(sent.at(-1)).toBe('SIGKILL');
    expect(p.exits).toEqual([143]);
  });

  it('exits at once with 128 + n when nothing runs, and kills what is left on a normal exit', () => {
    const p = fakeProcess();
    const sent: Array<string | number> = [];
    killChildrenOnExit(
      (signal) => {
        sent.push(signal);
        return 0;
      },
      { target: p.target },
    );
    p.emit('SIGHUP');
    expect(p.exits).toEqual([129]);
    p.emit('exit');
    expect(sent).toEqual(['SIGTERM', 'SIGKILL', 'SIGKILL']);
  });

  it('stop() removes the handlers, but waits for the exit a signal started', async () => {
    const p = fakeProcess();
    const stop = killChildrenOnExit(() => 0, { target: p.target });
    await stop();
    expect([...p.handlers.values()].every((list) => list.length === 0)).toBe(true);
    const q = fakeProcess();
    const stopQ = killChildrenOnExit(() => 1, { target: q.target, graceMs: 300 });
    q.emit('SIGINT');
    const settled = await Promise.race([
      stopQ().then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('waiting'), 50)),
    ]);
    expect(settled).toBe('waiting');
    // The grace period ran out: the exit came with SIGINT's status.
    await new Promise((r) => setTimeout(r, 400));
    expect(q.exits).toEqual([130]);
  });
});
