import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { PERMISSION_MODES } from '@codeagent/permission-gate';
import { createUIMessageStreamResponse } from 'ai';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AgentUIChunk } from '@codeagent/adapter-ai-sdk-ui';
import type { HostConfig } from './config.js';
import { cursorOf, followResponse } from './follow.js';
import { approvalAnswers } from './remote.js';
import { localSecurity } from './security.js';
import { isPermissionMode, SessionBusyError, type SessionManager } from './sessions.js';
import { isSessionId } from './store.js';
import { isRecord as isRec } from '@codeagent/artifact-schema/internal';

/** What {@link createApp} needs. */
export interface AppOptions {
  readonly sessions: SessionManager;
  readonly config: HostConfig;
  /** The per-run token. */
  readonly token: string;
  /** The port the server listens on, known once it listens. */
  readonly port: () => number;
  /** Folder of the built SPA (`index.html`, `assets/`). */
  readonly clientDir: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

type Json = Record<string, unknown>;

/** The answer for a session whose turn runs on another instance of the host. */
const REMOTE =
  'this session has a turn running on another instance of the web host; wait for it to end, then reload';

/** A stream of the given chunks. */
function chunks(list: readonly AgentUIChunk[]): ReadableStream<AgentUIChunk> {
  return new ReadableStream({
    start(controller) {
      for (const c of list) controller.enqueue(c);
      controller.close();
    },
  });
}

/**
 * A `start` chunk at once, then, once `begun` resolves, the chunks of `respond()` (their own `start` names the message);
 * an error instead when the turn could not begin (another instance started one). `respond()` is called as soon as the
 * turn is begun, whether or not the client still reads: a client gone meanwhile leaves the turn running, as a reload
 * mid-turn does.
 */
function startThen(
  begun: Promise<void>,
  respond: () => ReadableStream<AgentUIChunk>,
): ReadableStream<AgentUIChunk> {
  let failure: unknown;
  const turn = begun.then(respond, (error: unknown) => {
    failure = error;
    return null;
  });
  let reader: ReadableStreamDefaultReader<AgentUIChunk> | undefined;
  let started = false;
  let cancelled = false;
  let waiting = false;
  return new ReadableStream<AgentUIChunk>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue({ type: 'start' });
        return;
      }
      if (!reader) {
        waiting = true;
        const stream = await turn;
        waiting = false;
        if (cancelled) {
          await stream?.cancel();
          return;
        }
        if (!stream) {
          controller.enqueue({
            type: 'error',
            errorText:
              failure instanceof SessionBusyError
                ? failure.message
                : `cannot start the turn: ${String(failure)}`,
          });
          controller.enqueue({ type: 'finish', messageMetadata: { awaitingApproval: false } });
          controller.close();
          return;
        }
        reader = stream.getReader();
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      cancelled = true;
      // A pull waiting for the turn cancels it itself; otherwise it is cancelled here, once begun.
      if (reader) await reader.cancel(reason);
      else if (!waiting) void turn.then((stream) => stream?.cancel(reason)).catch(() => undefined);
    },
  });
}

/** The hono app of the web host: the SPA, the session API and the `useChat` endpoint, behind the local guard. */
export function createApp(options: AppOptions): Hono {
  const { sessions, config } = options;
  const app = new Hono();
  app.use('*', localSecurity({ port: options.port, token: options.token }));
  app.use(
    '/api/*',
    bodyLimit({ maxSize: 8 * 1024 * 1024, onError: (c) => c.text('request too large', 413) }),
  );
  // Calls with a body must be JSON: a form post from anywhere cannot be one (defence beside Origin); a form
  // cannot send DELETE at all.
  app.use('/api/*', async (c, next) => {
    if (c.req.method === 'POST' || c.req.method === 'PUT' || c.req.method === 'PATCH') {
      const type = c.req.header('content-type') ?? '';
      if (!type.toLowerCase().startsWith('application/json')) return c.text('expected application/json', 415);
    }
    await next();
    return undefined;
  });

  const readJson = async (c: { req: { json: () => Promise<unknown> } }): Promise<Json | null> => {
    try {
      const body = await c.req.json();
      return isRec(body) ? body : null;
    } catch {
      return null;
    }
  };

  app.get('/api/info', (c) =>
    c.json({
      model: config.modelLabel,
      demo: config.demo,
      note: config.note,
      cwd: config.cwd,
      modes: PERMISSION_MODES,
    }),
  );
  app.get('/api/sessions', async (c) => c.json(await sessions.list()));
  app.post('/api/sessions', async (c) => {
    const body = (await readJson(c)) ?? {};
    const title = typeof body.title === 'string' && body.title.trim() !== '' ? body.title : 'New session';
    const mode = isPermissionMode(body.mode) ? body.mode : 'default';
    return c.json(await sessions.create(title, mode), 201);
  });
  app.get('/api/sessions/:id', async (c) => {
    const id = c.req.param('id');
    const live = isSessionId(id) ? await sessions.open(id) : undefined;
    if (!live) return c.text('no such session', 404);
    const summary = await sessions.summary(id);
    if ('remote' in live)
      return c.json({
        ...summary,
        mode: live.mode,
        busy: true,
        remote: true,
        messages: live.messages,
        pending: live.pending,
      });
    return c.json({
      ...summary,
      mode: live.mode,
      busy: live.chat.busy,
      messages: live.chat.messages,
      pending: live.chat.pending.map((p) => ({ approvalId: p.approvalId, toolCallId: p.toolCallId })),
    });
  });
  app.patch('/api/sessions/:id', async (c) => {
    const id = c.req.param('id');
    const live = isSessionId(id) ? await sessions.open(id) : undefined;
    const body = await readJson(c);
    if (!live) return c.text('no such session', 404);
    if (!body) return c.text('expected a JSON object', 400);
    if (body.title !== undefined) {
      if (typeof body.title !== 'string' || body.title.trim() === '')
        return c.text('title must be text', 400);
      await sessions.rename(id, body.title.trim());
    }
    if (body.mode !== undefined) {
      if (!isPermissionMode(body.mode))
        return c.text(`mode must be one of ${PERMISSION_MODES.join(', ')}`, 400);
      await sessions.setMode(live, body.mode);
    }
    return c.json(await sessions.summary(id));
  });
  app.delete('/api/sessions/:id', async (c) => {
    const id = c.req.param('id');
    if (!isSessionId(id) || !(await sessions.delete(id))) return c.text('no such session', 404);
    return c.body(null, 204);
  });
  app.post('/api/sessions/:id/abort', async (c) => {
    const id = c.req.param('id');
    const live = isSessionId(id) ? await sessions.open(id) : undefined;
    if (!live) return c.text('no such session', 404);
    if ('remote' in live) return c.text(REMOTE, 409);
    try {
      await sessions.abort(live);
    } catch (error) {
      if (error instanceof SessionBusyError) return c.text(error.message, 409);
      throw error;
    }
    return c.json({ aborted: true });
  });
  // useChat's resume: the running turn replayed from its start, or after the position the client names
  // (`Last-Event-ID` / `?after=`), then followed live; 204 when none runs.
  app.get('/api/sessions/:id/stream', async (c) => {
    const id = c.req.param('id');
    const live = isSessionId(id) ? await sessions.open(id) : undefined;
    if (!live) return c.text('no such session', 404);
    const after = cursorOf(c.req.header('last-event-id'), c.req.query('after'));
    const signal = c.req.raw.signal;
    if (!('remote' in live) && after < 0) {
      // This instance runs the turn: replayed from memory.
      const stream = live.chat.reconnect({ signal });
      if (stream) return createUIMessageStreamResponse({ stream });
    }
    // The turn runs on another instance, the client resumes after a position, or the turn ended a moment ago (a
    // page that was told it runs): its live log.
    const followed = await sessions.follow(id, { after, signal });
    if (!followed) return c.body(null, 204);
    return followResponse(followed);
  });
  app.post('/api/sessions/:id/chat', async (c) => {
    const id = c.req.param('id');
    const live = isSessionId(id) ? await sessions.open(id) : undefined;
    if (!live) return c.text('no such session', 404);
    const body = await readJson(c);
    const messages = body?.messages;
    if (!Array.isArray(messages) || messages.length === 0) return c.text('expected {messages: [...]}', 400);
    const last = messages[messages.length - 1];
    if ('remote' in live) {
      // Approval answers for a turn parked on another instance reach it through the database (NOTIFY); this
      // response follows the continuation there. A new turn must wait for that one to end.
      const answers = approvalAnswers(last);
      if (answers.length === 0) return c.text(REMOTE, 409);
      // Where the client's message ends, read before the answers are stored (the turn goes on once they are).
      const after = await sessions.answerCursor(id, last);
      const answered = await sessions.answerRemote(id, answers);
      const followed = await sessions.follow(id, { after, answered, signal: c.req.raw.signal });
      if (followed) return followResponse(followed);
      // The turn ended meanwhile: the stored history has the rest.
      return createUIMessageStreamResponse({
        stream: chunks([{ type: 'start' }, { type: 'finish', messageMetadata: { awaitingApproval: false } }]),
      });
    }
    // Answers to a turn restored parked (its instance is gone): this instance takes it over in the store and resumes
    // it, unless another one took it first; then this response follows the turn there.
    if (
      live.parked !== null &&
      isRec(last) &&
      last.role === 'assistant' &&
      !(await sessions.claimParked(live))
    ) {
      const after = await sessions.answerCursor(id, last);
      const followed = await sessions.follow(id, { after, signal: c.req.raw.signal });
      if (followed) return followResponse(followed);
      return createUIMessageStreamResponse({
        stream: chunks([{ type: 'start' }, { type: 'finish', messageMetadata: { awaitingApproval: false } }]),
      });
    }
    if (!isRec(last) || last.role !== 'user') {
      const stream = live.chat.respond(last, { signal: c.req.raw.signal });
      return createUIMessageStreamResponse({ stream });
    }
    // A new turn: the response starts at once, while the write that begins the turn (and names the session after
    // its first message) commits; the turn itself starts only after it.
    const begun = sessions.beginTurn(live, last);
    begun.catch(() => undefined);
    return createUIMessageStreamResponse({
      stream: startThen(begun, () => live.chat.respond(last, { signal: c.req.raw.signal })),
    });
  });

  // The SPA: index.html for the app routes, files under assets/ as they are.
  const sendFile = async (relative: string) => {
    const root = resolve(options.clientDir);
    const path = normalize(join(root, relative));
    if (path !== root && !path.startsWith(root + sep)) return null;
    try {
      const data = await readFile(path);
      return new Response(data, {
        headers: {
          'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
          'Cache-Control': relative.startsWith('assets/')
            ? 'public, max-age=31536000, immutable'
            : 'no-store',
        },
      });
    } catch {
      return null;
    }
  };
  app.get('/assets/*', async (c) => (await sendFile(c.req.path.slice(1))) ?? c.text('not found', 404));
  app.get('/favicon.svg', async (c) => (await sendFile('favicon.svg')) ?? c.text('not found', 404));
  app.get('*', async (c) => {
    if (c.req.path.startsWith('/api/')) return c.text('not found', 404);
    return (await sendFile('index.html')) ?? c.text('the web client is not built (run the build)', 500);
  });
  return app;
}
