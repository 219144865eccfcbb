import { utf8CompleteLength, utf8SafeStart } from './text.js';

/**
 * What an output capture (`OutputCapture`, in `@codeagent/tools/internal`) holds: the kept text and how much
 * was dropped from the middle.
 */
export interface CapturedOutput {
  /** Head and tail joined by an omission marker when bytes were dropped. */
  text: string;
  /** Total bytes the process wrote. */
  totalBytes: number;
  /** Bytes dropped from the middle (0 when everything fit). */
  droppedBytes: number;
}

/**
 * Bounded capture of a byte stream: keeps the first `maxBytes / 2` and the last `maxBytes / 2`
 * bytes and counts what falls in between, so memory stays O(maxBytes) however much is written.
 */
export class OutputCapture {
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Buffer;
  #headLen = 0;
  #tail: Buffer[] = [];
  #tailLen = 0;
  #total = 0;

  /** Creates a capture that keeps at most `maxBytes` bytes (at least 2). */
  constructor(maxBytes: number) {
    const cap = Math.max(2, Math.floor(maxBytes));
    this.#headCap = Math.ceil(cap / 2);
    this.#tailCap = cap - this.#headCap;
    this.#head = Buffer.alloc(this.#headCap);
  }

  /** Total bytes written so far. */
  get totalBytes(): number {
    return this.#total;
  }

  /** Appends a chunk. */
  write(chunk: Uint8Array): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headLen < this.#headCap) {
      const n = Math.min(this.#headCap - this.#headLen, rest.length);
      this.#head.set(rest.subarray(0, n), this.#headLen);
      this.#headLen += n;
      rest = rest.subarray(n);
    }
    if (rest.length === 0) return;
    if (rest.length >= this.#tailCap) {
      this.#tail = [Buffer.from(rest.subarray(rest.length - this.#tailCap))];
      this.#tailLen = this.#tailCap;
      return;
    }
    this.#tail.push(Buffer.from(rest));
    this.#tailLen += rest.length;
    while (this.#tailLen > this.#tailCap) {
      const first = this.#tail[0]!;
      const excess = this.#tailLen - this.#tailCap;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailLen -= first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailLen -= excess;
      }
    }
  }

  /** The kept output as text (UTF-8; never splits a character at the cut). */
  snapshot(): CapturedOutput {
    const tail = Buffer.concat(this.#tail, this.#tailLen);
    const dropped = this.#total - this.#headLen - this.#tailLen;
    if (dropped === 0) {
      const all = Buffer.concat([this.#head.subarray(0, this.#headLen), tail]);
      return { text: all.toString('utf8'), totalBytes: this.#total, droppedBytes: 0 };
    }
    const headEnd = utf8CompleteLength(this.#head.subarray(0, this.#headLen));
    const tailStart = utf8SafeStart(tail, 0);
    const head = this.#head.subarray(0, headEnd).toString('utf8');
    const tailText = tail.subarray(tailStart).toString('utf8');
    const omitted = dropped + (this.#headLen - headEnd) + tailStart;
    return {
      text: `${head}\n\n[... ${omitted} bytes omitted ...]\n\n${tailText}`,
      totalBytes: this.#total,
      droppedBytes: omitted,
    };
  }
}
