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
  /**
   * Keeps the terminal in raw mode between captures and line reads (a REPL, from its first prompt to its end) until
   * the returned function is called: keys typed in a gap (a turn just ended, the next prompt not drawn yet) are
   * neither echoed nor line-buffered by the terminal; they wait, unread, for the next reader. `reassert()` puts raw
   * mode back after something else turned it off (closing a readline interface does).
   */
  hold?(): { release: () => void; reassert: () => void };
}

/**
 * Raw keypresses from a TTY stdin (none from a pipe). Captures nest (a turn, then an approval inside it): raw
 * mode stays on until the last one is released, so Ctrl+C stays a key and never becomes a SIGINT mid-turn.
 */
export function stdinKeys(stdin: NodeJS.ReadStream): KeyInput {
  const interactive = stdin.isTTY === true;
  let active = 0;
  let held = 0;
  return {
    interactive,
    hold() {
      if (!interactive) return { release: () => undefined, reassert: () => undefined };
      held += 1;
      stdin.setRawMode(true);
      let released = false;
      return {
        reassert: () => {
          if (!released) stdin.setRawMode(true);
        },
        release: () => {
          if (released) return;
          released = true;
          held -= 1;
          if (held === 0 && active === 0) stdin.setRawMode(false);
        },
      };
    },
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
          // Paused, so what is typed next waits for the next reader; raw mode stays while a REPL holds it.
          if (held === 0) stdin.setRawMode(false);
          stdin.pause();
        }
      };
    },
  };
}
