import { clean } from './clean.js';
import type { KeyInput } from './keys.js';
import type { SessionEntry } from './sessions.js';

/** Most sessions the picker offers. */
const MAX_ROWS = 15;

/** One line describing a session: when, folder, model, title (or why it is damaged). */
export function describeSession(s: SessionEntry, now: Date = new Date()): string {
  const when = s.updatedAt.getTime() > 0 ? relativeTime(now.getTime() - s.updatedAt.getTime()) : '?';
  if (s.damaged !== null) return `${s.id}  ${when}  DAMAGED: ${clean(s.damaged)}`;
  const folder = s.cwd ? clean(s.cwd) : '(folder unknown)';
  const model = s.model ? ` · ${clean(s.model)}` : '';
  const cut = s.interrupted ? '  (last turn interrupted)' : '';
  return `${s.id}  ${when}  ${folder}${model}  ${clean(s.title).slice(0, 60)}${cut}`;
}

function relativeTime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/**
 * Lets the user pick a session with the arrow keys (or digits 1-9) and Enter; Esc, q or Ctrl+C cancel (null).
 * Sessions of `cwd` come first; damaged files are listed but cannot be chosen.
 */
export function pickSession(
  sessions: readonly SessionEntry[],
  cwd: string,
  io: { write: (text: string) => void; keys: KeyInput; color: boolean },
): Promise<SessionEntry | null> {
  const ordered = [
    ...sessions.filter((s) => s.cwd === cwd && s.damaged === null),
    ...sessions.filter((s) => s.cwd !== cwd && s.damaged === null),
    ...sessions.filter((s) => s.damaged !== null),
  ].slice(0, MAX_ROWS);
  const choosable = ordered.filter((s) => s.damaged === null);
  if (choosable.length === 0) return Promise.resolve(null);
  let index = 0;
  let drawn = 0;
  const draw = () => {
    if (drawn > 0) io.write(`\u001b[${drawn}A`);
    const rows = ordered.map((s, i) => {
      const text = `${i < 9 ? `${i + 1}.` : '  '} ${describeSession(s)}`;
      const selected = s === choosable[index];
      const line = selected ? `› ${text}` : `  ${text}`;
      const styled = io.color
        ? selected
          ? `\u001b[1m${line}\u001b[0m`
          : s.damaged
            ? `\u001b[2m${line}\u001b[0m`
            : line
        : line;
      return `\r\u001b[2K${styled}`;
    });
    rows.push('\r\u001b[2K↑/↓ choose · Enter resume · Esc cancel');
    io.write(`${rows.join('\n')}\n`);
    drawn = rows.length;
  };
  io.write('Resume which session?\n');
  draw();
  return new Promise((resolve) => {
    const release = io.keys.capture((key) => {
      const name = key.name ?? key.sequence ?? '';
      let done: SessionEntry | null | undefined;
      if (name === 'up' || name === 'k') index = (index + choosable.length - 1) % choosable.length;
      else if (name === 'down' || name === 'j') index = (index + 1) % choosable.length;
      else if (name === 'return' || name === 'enter') done = choosable[index] ?? null;
      else if (name === 'escape' || name === 'q' || (key.ctrl && key.name === 'c')) done = null;
      else if (/^[1-9]$/u.test(name)) {
        const picked = ordered[Number(name) - 1];
        if (picked !== undefined && picked.damaged === null) done = picked;
      } else return;
      if (done === undefined) {
        draw();
        return;
      }
      release();
      resolve(done);
    });
  });
}
