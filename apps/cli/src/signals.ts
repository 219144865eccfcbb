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
 * `graceMs`) before the CLI exits with `128 + signal`, and kills whatever is left on a normal exit too, so no
 * foreground command or background job is re-parented to init. Returns a function that removes the handlers.
 */
export function killChildrenOnExit(
  kill: (signal: NodeJS.Signals) => number,
  options: { graceMs?: number; beforeExit?: () => void; target?: SignalTarget } = {},
): () => void {
  const target: SignalTarget = options.target ?? process;
  const grace = options.graceMs ?? 300;
  let ending = false;
  const handlers = EXIT_SIGNALS.map((signal) => {
    const handler = (): void => {
      if (ending) return;
      ending = true;
      const alive = kill('SIGTERM');
      const finish = (): void => {
        kill('SIGKILL');
        options.beforeExit?.();
        target.exit(128 + (constants.signals[signal] ?? 0));
      };
      if (alive === 0) finish();
      else setTimeout(finish, grace);
    };
    target.on(signal, handler);
    return [signal, handler] as const;
  });
  const onExit = (): void => {
    kill('SIGKILL');
  };
  target.on('exit', onExit);
  return () => {
    for (const [signal, handler] of handlers) target.off(signal, handler);
    target.off('exit', onExit);
  };
}
