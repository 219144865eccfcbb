import { constants } from 'node:os';

/** The signals after which the CLI ends its children and exits. */
export const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** What {@link killChildrenOnExit} needs from the process (injectable for tests). */
export interface SignalTarget {
  on(event: 'exit' | NodeJS.Signals, listener: () => void): unknown;
  off(event: 'exit' | NodeJS.Signals, listener: () => void): unknown;
  exit(status: number): never;
}

/**
 * Makes SIGINT, SIGTERM and SIGHUP end every process group the session started (SIGTERM, then SIGKILL after
 * `graceMs`, sooner when they are gone) before the CLI exits with `128 + signal`, and kills whatever is left
 * on a normal exit too, so no foreground command or background job is re-parented to init. Returns a function
 * that removes the handlers; while a signal is being handled it waits for that exit instead (so a turn that
 * ended because its command was killed cannot exit with 0 first).
 */
export function killChildrenOnExit(
  kill: (signal: NodeJS.Signals | 0) => number,
  options: {
    graceMs?: number;
    beforeExit?: () => void;
    target?: SignalTarget;
    /** The signals handled (default {@link EXIT_SIGNALS}); the REPL keeps SIGINT for its own Ctrl+C. */
    signals?: readonly (typeof EXIT_SIGNALS)[number][];
  } = {},
): () => Promise<void> {
  const target: SignalTarget = options.target ?? process;
  const grace = options.graceMs ?? 300;
  let ending = false;
  const handlers = (options.signals ?? EXIT_SIGNALS).map((signal) => {
    const handler = (): void => {
      if (ending) return;
      ending = true;
      const finish = (): void => {
        kill('SIGKILL');
        options.beforeExit?.();
        target.exit(128 + (constants.signals[signal] ?? 0));
      };
      const deadline = Date.now() + grace;
      const poll = (): void => {
        if (Date.now() >= deadline || kill(0) === 0) finish();
        else setTimeout(poll, 20);
      };
      if (kill('SIGTERM') === 0) finish();
      else setTimeout(poll, 20);
    };
    target.on(signal, handler);
    return [signal, handler] as const;
  });
  const onExit = (): void => {
    kill('SIGKILL');
  };
  target.on('exit', onExit);
  return () => {
    if (ending) return new Promise<void>(() => undefined);
    for (const [signal, handler] of handlers) target.off(signal, handler);
    target.off('exit', onExit);
    return Promise.resolve();
  };
}
