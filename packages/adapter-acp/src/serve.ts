import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { type AcpAgentOptions, createAcpAgent } from './agent.js';

/** Streams of a stdio server (the process's own by default). */
export interface AcpStdio {
  /** Where the editor's messages come from. */
  readonly input: NodeJS.ReadableStream;
  /** Where protocol messages go (nothing else is ever written there). */
  readonly output: NodeJS.WritableStream;
  /** Largest accepted message in bytes; default the SDK's. */
  readonly maxMessageBytes?: number;
  /** Aborting it closes the connection as if the editor had closed stdin (e.g. on SIGTERM). */
  readonly signal?: AbortSignal;
}

/**
 * Serves codeagent sessions as an ACP agent over newline-delimited JSON (stdio). Resolves when the editor
 * closes the input, `signal` aborts or the connection fails, after aborting running turns and disposing every
 * session.
 */
export async function serveAcp(options: AcpAgentOptions, stdio: AcpStdio): Promise<void> {
  const agent = createAcpAgent(options);
  const input = Readable.toWeb(stdio.input as Readable) as unknown as ReadableStream<Uint8Array>;
  const output = Writable.toWeb(stdio.output as Writable) as WritableStream<Uint8Array>;
  const stream = ndJsonStream(
    output,
    input,
    stdio.maxMessageBytes === undefined ? {} : { maxMessageBytes: stdio.maxMessageBytes },
  );
  const connection = agent.app.connect(stream);
  const stop = () => connection.close();
  if (stdio.signal?.aborted) stop();
  stdio.signal?.addEventListener('abort', stop, { once: true });
  try {
    await connection.closed;
  } catch (error) {
    options.log?.(`connection closed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    stdio.signal?.removeEventListener('abort', stop);
    await agent.dispose();
  }
}
