import { emitKeypressEvents } from 'node:readline';

/** One key as Node's readline reports it. */
export interface Key {
  name?: string | undefined;
  ctrl?: boolean | undefined;
  sequence?: string | undefined;
}

/** The input side of an interactive terminal: raw keypresses while a turn runs. */
export interface KeyInput {
  /** Whether keys can be read at all (stdin is a TTY). */
  readonly interactive: boolean;
  /** Starts delivering raw keypresses to `handler` until the returned function is called. */
  capture(handler: (key: Key) => void): () => void;
}

/**
 * Raw keypresses from a TTY stdin (none from a pipe). Captures nest (a turn, then an approval inside it): raw
 * mode stays on until the last one is released, so Ctrl+C stays a key and never becomes a SIGINT mid-turn.
 */
export function stdinKeys(stdin: NodeJS.ReadStream): KeyInput {
  const interactive = stdin.isTTY === true;
  let active = 0;
  return {
    interactive,
    capture(handler) {
      if (!interactive) return () => undefined;
      emitKeypressEvents(stdin);
      if (active === 0) {
        stdin.setRawMode(true);
        stdin.resume();
      }
      active += 1;
      const listener = (_: string | undefined, key: Key | undefined) => handler(key ?? {});
      stdin.on('keypress', listener);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        stdin.off('keypress', listener);
        active -= 1;
        if (active === 0) {
          stdin.setRawMode(false);
          stdin.pause();
        }
      };
    },
  };
}
