import type { AgentUIMessage } from '@codeagent/adapter-ai-sdk-ui';

/** What `/api/info` answers. */
export interface HostInfo {
  readonly model: string;
  readonly demo: boolean;
  readonly note: string | null;
  readonly cwd: string;
  readonly modes: readonly string[];
}

/** A session in the list. */
export interface SessionSummary {
  readonly id: string;
  readonly title: string;
  readonly mode: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One session with its stored UI history. */
export interface SessionDetail extends SessionSummary {
  readonly busy: boolean;
  readonly messages: AgentUIMessage[];
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: 'same-origin',
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** The session API of the web host (same origin; the token travels in the HttpOnly cookie). */
export const api = {
  info: () => call<HostInfo>('GET', '/api/info'),
  list: () => call<SessionSummary[]>('GET', '/api/sessions'),
  create: () => call<SessionSummary>('POST', '/api/sessions', {}),
  get: (id: string) => call<SessionDetail>('GET', `/api/sessions/${encodeURIComponent(id)}`),
  rename: (id: string, title: string) =>
    call<SessionSummary>('PATCH', `/api/sessions/${encodeURIComponent(id)}`, { title }),
  setMode: (id: string, mode: string) =>
    call<SessionSummary>('PATCH', `/api/sessions/${encodeURIComponent(id)}`, { mode }),
  remove: (id: string) => call<void>('DELETE', `/api/sessions/${encodeURIComponent(id)}`),
  abort: (id: string) =>
    call<{ aborted: boolean }>('POST', `/api/sessions/${encodeURIComponent(id)}/abort`, {}),
};
