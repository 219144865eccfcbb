const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Formats elapsed milliseconds as `1.2s` or `1m 03s`. */
export function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}

/** A one-line spinner with elapsed time, advanced by the agent's `onTick` heartbeat (no timer of its own). */
export class Spinner {
  private frame = 0;
  private startedAt = 0;
  private visible = false;
  private label = 'thinking';

  constructor(
    private readonly write: (text: string) => void,
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now,
    /** Colours (off under NO_COLOR / --no-color: the spinner then writes plain text). */
    private readonly color: boolean = true,
  ) {}

  /** Changes what the spinner says it is doing (`thinking`, `running Bash: npm test`). */
  setLabel(label: string): void {
    this.label = label;
  }

  /** Starts timing a turn. */
  start(label = 'thinking'): void {
    this.startedAt = this.now();
    this.label = label;
    this.frame = 0;
  }

  /** Redraws the spinner line (called on each tick). */
  tick(): void {
    if (!this.enabled) return;
    const glyph = FRAMES[this.frame % FRAMES.length] ?? '*';
    this.frame += 1;
    const elapsed = formatElapsed(this.now() - this.startedAt);
    this.write(
      this.color
        ? `\r\x1b[2K\x1b[36m${glyph}\x1b[0m ${this.label} \x1b[2m${elapsed}\x1b[0m`
        : `\r\x1b[2K${glyph} ${this.label} ${elapsed}`,
    );
    this.visible = true;
  }

  /** Erases the spinner line so output can be written in its place. */
  clear(): void {
    if (!this.visible) return;
    this.write('\r\x1b[2K');
    this.visible = false;
  }

  /** Time since {@link start}, in ms. */
  elapsed(): number {
    return this.now() - this.startedAt;
  }
}
