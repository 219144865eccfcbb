import { describe, expect, it, vi } from 'vitest';
import {
  type AskCallback,
  type AskResult,
  createPermissionGate,
  permissionDeniedMessage,
} from '../src/index.js';

const bash = { id: 'call_1', name: 'Bash', input: { command: 'npm test' } };

function gateWith(ask: AskCallback | null, extra: { askTimeoutMs?: number } = {}) {
  return createPermissionGate({ mode: 'default', ask, ...extra });
}

describe('check: allow and deny need no callback', () => {
  it('allows reads without asking', async () => {
    const ask = vi.fn(() => false);
    const r = await gateWith(ask).check({ name: 'Read', input: { file_path: 'a' } });
    expect(r).toEqual({
      allowed: true,
      reason: 'default mode: allow for read',
      source: { kind: 'mode', mode: 'default' },
    });
    expect(ask).not.toHaveBeenCalled();
  });

  it('denies by rule with provenance in the reason', async () => {
    const gate = createPermissionGate({ rules: { deny: ['Bash(rm *)'] }, ask: () => true });
    const r = await gate.check({ name: 'Bash', input: { command: 'rm -rf /' } });
    expect(r).toEqual({
      allowed: false,
      reason: 'deny rule Bash(rm *)',
      source: { kind: 'rule', rule: 'Bash(rm *)', list: 'deny' },
    });
    expect(permissionDeniedMessage('Bash', r.reason)).toBe(
      'Permission denied for Bash (deny rule Bash(rm *))',
    );
  });
});

describe('check: the ask callback', () => {
  it('is called with (name, input, id)', async () => {
    const ask = vi.fn<AskCallback>(() => true);
    const r = await gateWith(ask).check(bash);
    expect(ask).toHaveBeenCalledWith('Bash', { command: 'npm test' }, 'call_1', {
      reason: 'default mode: ask for exec',
      source: { kind: 'mode', mode: 'default' },
      grantScope: { kind: 'command-prefix', prefix: 'npm test' },
    });
    expect(r).toEqual({
      allowed: true,
      reason: 'approved by the user once',
      source: { kind: 'ask', outcome: 'approved', scope: 'once' },
    });
  });

  it('passes undefined as id when the call has none', async () => {
    const ask = vi.fn<AskCallback>(() => true);
    await gateWith(ask).check({ name: 'Bash', input: {} });
    expect(ask).toHaveBeenCalledWith('Bash', {}, undefined, expect.objectContaining({ grantScope: null }));
  });

  it('accepts a promise', async () => {
    expect((await gateWith(async () => true).check(bash)).allowed).toBe(true);
    expect((await gateWith(async () => false).check(bash)).allowed).toBe(false);
  });

  const FAILS: ReadonlyArray<readonly [string, unknown, string]> = [
    ['false', false, 'declined'],
    ['"yes"', 'yes', 'invalid'],
    ['"true"', 'true', 'invalid'],
    ['1', 1, 'invalid'],
    ['null', null, 'invalid'],
    ['undefined', undefined, 'invalid'],
    ['an array [true]', [true], 'invalid'],
    ['{allow: "true"}', { allow: 'true', scope: 'once' }, 'invalid'],
    ['{allow: true} without scope', { allow: true }, 'invalid'],
    ['{allow: true, scope: "forever"}', { allow: true, scope: 'forever' }, 'invalid'],
    ['{allow: false, scope: "session"}', { allow: false, scope: 'session' }, 'declined'],
    ['a Boolean object', Object(true), 'invalid'],
    ['a thenable resolving "yes"', Promise.resolve('yes'), 'invalid'],
  ];
  it.each(FAILS)('denies when it returns %s', async (_label, value, outcome) => {
    const r = await gateWith(() => value as AskResult).check(bash);
    expect(r.allowed).toBe(false);
    expect(r.source).toEqual({ kind: 'ask', outcome });
  });

  it('denies when it throws synchronously', async () => {
    const r = await gateWith(() => {
      throw new Error('dialog crashed');
    }).check(bash);
    expect(r).toEqual({
      allowed: false,
      reason: 'approval callback failed: dialog crashed',
      source: { kind: 'ask', outcome: 'threw' },
    });
  });

  it('denies when it rejects, even with a non-Error', async () => {
    const r = await gateWith(() => Promise.reject('nope')).check(bash);
    expect(r).toMatchObject({ allowed: false, source: { kind: 'ask', outcome: 'threw' } });
    expect(r.reason).toBe('approval callback failed: nope');
  });

  it('denies when the result has a throwing getter', async () => {
    const evil = {
      get allow(): boolean {
        throw new Error('boom');
      },
      scope: 'once',
    };
    const r = await gateWith(() => evil as unknown as AskResult).check(bash);
    expect(r).toMatchObject({ allowed: false, source: { kind: 'ask', outcome: 'threw' } });
  });

  it('denies without a callback', async () => {
    const r = await gateWith(null).check(bash);
    expect(r).toEqual({
      allowed: false,
      reason: 'approval required but no ask callback is installed',
      source: { kind: 'ask', outcome: 'no-callback' },
    });
  });

  it('denies on timeout (fake timers, no wall clock)', async () => {
    vi.useFakeTimers();
    try {
      const gate = gateWith(() => new Promise<boolean>(() => {}), { askTimeoutMs: 5000 });
      const pending = gate.check(bash);
      await vi.advanceTimersByTimeAsync(5000);
      const r = await pending;
      expect(r).toEqual({
        allowed: false,
        reason: 'approval timed out: no answer within 5000 ms',
        source: { kind: 'ask', outcome: 'timeout' },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer before the timeout wins and clears the timer', async () => {
    vi.useFakeTimers();
    try {
      const gate = gateWith(async () => true, { askTimeoutMs: 5000 });
      const r = await gate.check(bash);
      expect(r.allowed).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('denies when the signal aborts while asking, or is already aborted', async () => {
    const ctl = new AbortController();
    const pending = gateWith(() => new Promise<boolean>(() => {})).check({ ...bash, signal: ctl.signal });
    ctl.abort();
    expect(await pending).toMatchObject({ allowed: false, source: { kind: 'ask', outcome: 'aborted' } });
    const ask = vi.fn(() => true);
    const r = await gateWith(ask).check({ ...bash, signal: AbortSignal.abort() });
    expect(r.allowed).toBe(false);
    expect(ask).not.toHaveBeenCalled();
  });
});

describe('grants', () => {
  it('once grants allow only the current call', async () => {
    const ask = vi.fn<AskCallback>(() => ({ allow: true, scope: 'once' }));
    const gate = gateWith(ask);
    expect((await gate.check(bash)).allowed).toBe(true);
    expect((await gate.check(bash)).allowed).toBe(true);
    expect(ask).toHaveBeenCalledTimes(2);
    expect(gate.sessionGrants()).toEqual([]);
  });

  it('session grants are remembered per gate and tool, and can be revoked', async () => {
    const ask = vi.fn<AskCallback>(() => ({ allow: true, scope: 'session' }));
    const gate = gateWith(ask);
    const other = gateWith(() => false);
    expect((await gate.check(bash)).source).toEqual({ kind: 'ask', outcome: 'approved', scope: 'session' });
    expect(await gate.check({ name: 'Bash', input: { command: 'npm  test --watch' } })).toEqual({
      allowed: true,
      reason: 'granted for this session: Bash commands starting with `npm test`',
      source: { kind: 'grant', scope: 'session', id: 'g1' },
    });
    expect(ask).toHaveBeenCalledTimes(1);
    expect(gate.sessionGrants()).toEqual(['Bash']);
    // Another gate (another client) does not inherit the grant.
    expect((await other.check(bash)).allowed).toBe(false);
    // A different tool still asks.
    await gate.check({ name: 'WebFetch', input: { url: 'x' } });
    expect(ask).toHaveBeenCalledTimes(2);
    gate.revokeSessionGrants('Bash');
    expect(gate.sessionGrants()).toEqual(['WebFetch']);
    gate.revokeSessionGrants();
    expect(gate.sessionGrants()).toEqual([]);
  });

  it('a session grant never overrides a deny', async () => {
    const gate = createPermissionGate({
      ask: () => ({ allow: true, scope: 'session' }),
      rules: { deny: ['Bash(rm *)'] },
    });
    expect((await gate.check(bash)).allowed).toBe(true);
    expect((await gate.check({ name: 'Bash', input: { command: 'rm -rf /' } })).allowed).toBe(false);
  });
});

describe('fail closed on bad requests and internal errors', () => {
  it('denies a non-object request and a bad name', async () => {
    const gate = gateWith(() => true);
    expect((await gate.check(null as never)).allowed).toBe(false);
    const r = await gate.check({ name: 42 as never, input: {} });
    expect(r.allowed).toBe(false);
    expect(r.source.kind).toBe('error');
  });

  it('denies when reading the request throws', async () => {
    const gate = gateWith(() => true);
    const req = Object.defineProperty({}, 'name', {
      get() {
        throw new Error('trap');
      },
    });
    expect(await gate.check(req as never)).toEqual({
      allowed: false,
      reason: 'internal error while deciding: trap',
      source: { kind: 'error', message: 'trap' },
    });
  });

  it('evaluate denies when inspecting the input throws (proxy trap)', () => {
    const gate = createPermissionGate({ rules: { allow: ['Bash(*)'] } });
    const input = new Proxy(
      {},
      {
        has() {
          throw new Error('has trap');
        },
        getOwnPropertyDescriptor() {
          throw new Error('descriptor trap');
        },
        get() {
          throw new Error('get trap');
        },
      },
    );
    const e = gate.evaluate('Bash', input);
    expect(e.decision).toBe('deny');
    expect(e.source.kind).toBe('error');
  });
});

describe('permissionDeniedMessage', () => {
  it('formats the contract text', () => {
    expect(permissionDeniedMessage('Write', 'plan mode: deny for write')).toBe(
      'Permission denied for Write (plan mode: deny for write)',
    );
  });

  it('escapes control, ANSI and bidi characters from model-chosen names', () => {
    const m = permissionDeniedMessage('Evil\u001b[2J\u202eTool\n', 'x');
    expect(m).toBe('Permission denied for Evil\\u001b[2J\\u202eTool\\u000a (x)');
    expect(m).not.toMatch(/[\u0000-\u001f\u202e]/);
  });
});
