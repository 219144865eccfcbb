/** Raw live output kept per call for the terminal (beyond it, the rest of the stream is not sent). */
export const LIVE_TERMINAL_KEEP = 256 * 1024;
/** Without a terminal widget: at most one content update per call this often (each resends the tail). */
export const LIVE_CONTENT_INTERVAL_MS = 200;
/** Without a terminal widget: the characters of the tail a content update shows. */
export const LIVE_CONTENT_TAIL = 8 * 1024;

/** The omission marker of a capped Bash output (`@codeagent/tools`): head, marker, tail. */
const OMITTED = /\n\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n\n/;
/** A complete escape sequence at the start of a string: CSI, OSC / DCS / SOS / PM / APC string, or two characters. */
const COMPLETE_ESCAPE =
  /^\u001b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)|[ -/]*(?![[\]PX^_])[0-~])/;

/**
 * Splits off an escape sequence that the next chunk may complete (`ESC [ 3` | `1m`): sanitising each half alone
 * would drop the first and print the second. Only the last 256 characters are looked at; a longer unfinished
 * sequence is not held (the sanitiser removes it).
 */
export function holdIncompleteEscape(text: string): { ready: string; held: string } {
  const esc = text.lastIndexOf('\u001b');
  if (esc === -1 || text.length - esc > 256 || COMPLETE_ESCAPE.test(text.slice(esc)))
    return { ready: text, held: '' };
  return { ready: text.slice(0, esc), held: text.slice(esc) };
}

/**
 * What the editor's terminal still lacks of the final output once `streamed` was sent live: nothing when the
 * stream had it all (also when stdout and stderr interleaved differently), the rest when the final output goes
 * on from the stream, or, for a capped output, the omission marker and the tail.
 */
export function remainingTerminalData(final: string, streamed: string | undefined): string {
  if (streamed === undefined) return final;
  if (final.startsWith(streamed)) return final.slice(streamed.length);
  const cut = OMITTED.exec(final);
  return cut === null ? '' : `\n${final.slice(cut.index + 2)}`;
}

/** The live state of one running call of a session. */
export interface LiveCall {
  /** Raw text sent to the terminal so far (terminal mode), or the kept tail (content mode). */
  text: string;
  /** An unfinished escape sequence held for the next chunk (terminal mode). */
  held: string;
  /** The stream outgrew {@link LIVE_TERMINAL_KEEP}: nothing more is sent live. */
  full: boolean;
  /** Whether an update was sent (the first one says `in_progress`). */
  started: boolean;
  /** When the last content update went out (content mode). */
  lastSent: number;
  /** A scheduled content update (content mode). */
  timer: ReturnType<typeof setTimeout> | null;
}

/** A fresh live state. */
export function liveCall(): LiveCall {
  return { text: '', held: '', full: false, started: false, lastSent: Number.NEGATIVE_INFINITY, timer: null };
}
