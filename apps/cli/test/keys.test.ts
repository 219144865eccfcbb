import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type Key, stdinKeys } from '../src/keys.js';

function fakeTty() {
  const stream = new PassThrough() as PassThrough & {
    isTTY: boolean;
    isRaw: boolean;
    setRawMode(m: boolean): void;
  };
  stream.isTTY = true;
  stream.isRaw = false;
  stream.setRawMode = (mode: boolean) => {
    stream.isRaw = mode;
  };
  return stream;
}

describe('stdinKeys', () => {
  it('keeps raw mode on until the last nested capture is released (Ctrl+C never becomes SIGINT mid-turn)', () => {
    const tty = fakeTty();
    const keys = stdinKeys(tty as unknown as NodeJS.ReadStream);
    const seen: string[] = [];
    const releaseTurn = keys.capture((k: Key) => seen.push(`turn:${k.name}`));
    const releaseApproval = keys.capture((k: Key) => seen.push(`approval:${k.name}`));
    expect(tty.isRaw).toBe(true);
    tty.write('y');
    releaseApproval();
    releaseApproval(); // releasing twice changes nothing
    expect(tty.isRaw).toBe(true);
    tty.write('\u0003');
    releaseTurn();
    expect(tty.isRaw).toBe(false);
    expect(seen).toEqual(['turn:y', 'approval:y', 'turn:c']);
  });

  it('reads no keys from a pipe', () => {
    const pipe = new PassThrough() as unknown as NodeJS.ReadStream;
    const keys = stdinKeys(pipe);
    expect(keys.interactive).toBe(false);
    keys.capture(() => {
      throw new Error('no key expected');
    })();
  });
});
