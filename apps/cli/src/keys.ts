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

/** Raw keypresses from a TTY stdin (none from a pipe). */
export function stdinKeys(stdin: NodeJS.ReadStream): KeyInput {
  const interactive = stdin.isTTY === true;
  return {
    interactive,
    capture(handler) {
      if (!interactive) return () => undefined;
      emitKeypressEvents(stdin);
      stdin.setRawMode(true);
      stdin.resume();
      const listener = (_: string | undefined, key: Key | undefined) => handler(key ?? {});
      stdin.on('keypress', listener);
      return () => {
        stdin.off('keypress', listener);
        stdin.setRawMode(false);
        stdin.pause();
      };
    },
  };
}
