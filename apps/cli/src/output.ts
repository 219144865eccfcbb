import { Writable } from 'node:stream';

/** A stream that discards what is written: the progress of `-p` when nobody asked to see it. */
export function nullSink(): NodeJS.WritableStream & { isTTY?: boolean; columns?: number } {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
}
