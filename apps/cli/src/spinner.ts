import { truncateToWidth, visibleWidth } from '@codeagent/terminal';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** How to stop what the spinner shows. */
const HINT = 'esc to interrupt';

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
    /** The terminal's width in columns, read on every redraw. */
    private readonly width: () => number = () => 80,
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
    // One row, always: a wrapped spinner line could not be erased in place.
    const room = Math.max(10, this.width() - 1);
    const tail = visibleWidth(`${glyph}  ${elapsed} · ${HINT}`) <= room - 10 ? ` · ${HINT}` : '';
    const label = truncateToWidth(this.label, room - visibleWidth(`${glyph}  ${elapsed}${tail}`));
    this.write(
      this.color
        ? `\r\x1b[2K\x1b[36m${glyph}\x1b[0m ${label} \x1b[2m${elapsed}${tail}\x1b[0m`
        : `\r\x1b[2K${glyph} ${label} ${elapsed}${tail}`,
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
