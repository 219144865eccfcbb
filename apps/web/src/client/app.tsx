import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { api, type HostInfo, type SessionDetail, type SessionSummary } from './api.ts';
import { loadChatView } from './chat-loader.ts';

const ChatView = lazy(loadChatView);

type Theme = 'light' | 'dark';

function sessionFromPath(): string | null {
  const match = /^\/s\/([A-Za-z0-9_-]{1,64})$/.exec(window.location.pathname);
  return match?.[1] ?? null;
}

function initialTheme(): Theme {
  const saved = window.localStorage.getItem('codeagent-theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The web host's page: the session list, the open session's chat, the theme switch. */
export function App(): ReactNode {
  const [info, setInfo] = useState<HostInfo | null>(null);
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [current, setCurrent] = useState<string | null>(sessionFromPath());
  const [detail, setDetail] = useState<SessionDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const [renaming, setRenaming] = useState<string | null>(null);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    window.localStorage.setItem('codeagent-theme', theme);
  }, [theme]);

  const refreshList = useCallback(async () => {
    try {
      setSessions(await api.list());
    } catch (e) {
      setError(String(e));
    }
  }, []);

  const open = useCallback((id: string | null) => {
    setCurrent(id);
    window.history.pushState(null, '', id === null ? '/' : `/s/${id}`);
  }, []);

  useEffect(() => {
    void api.info().then(setInfo, (e) => setError(String(e)));
    void refreshList();
    const onPop = () => setCurrent(sessionFromPath());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [refreshList]);

  useEffect(() => {
    setDetail(null);
    if (current === null) return;
    let cancelled = false;
    api.get(current).then(
      (d) => {
        if (!cancelled) setDetail(d);
      },
      (e) => {
        if (!cancelled) setError(String(e));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [current]);

  const newSession = async () => {
    const s = await api.create();
    await refreshList();
    open(s.id);
  };

  const remove = async (id: string) => {
    await api.remove(id);
    if (current === id) open(null);
    await refreshList();
  };

  const rename = async (id: string, title: string) => {
    setRenaming(null);
    if (title.trim() === '') return;
    await api.rename(id, title.trim());
    await refreshList();
  };

  return (
    <div className="app">
      <aside className="sidebar" aria-label="Sessions">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ‹›
          </span>{' '}
          codeagent
        </div>
        <button type="button" className="ca-button new-session" onClick={() => void newSession()}>
          New session
        </button>
        <ul className="session-list">
          {sessions.map((s) => (
            <li key={s.id} className={s.id === current ? 'session active' : 'session'} data-session-id={s.id}>
              {renaming === s.id ? (
                <form
                  className="rename-form"
                  onSubmit={(e) => {
                    e.preventDefault();
                    const input = e.currentTarget.elements.namedItem('title') as HTMLInputElement;
                    void rename(s.id, input.value);
                  }}
                >
                  <input name="title" aria-label="Session title" defaultValue={s.title} maxLength={200} />
                  <button type="submit" className="ca-button">
                    Save
                  </button>
                </form>
              ) : (
                <>
                  <button type="button" className="session-open" onClick={() => open(s.id)} title={s.title}>
                    {s.title}
                  </button>
                  <span className="session-actions">
                    <button type="button" aria-label={`Rename ${s.title}`} onClick={() => setRenaming(s.id)}>
                      ✎
                    </button>
                    <button type="button" aria-label={`Delete ${s.title}`} onClick={() => void remove(s.id)}>
                      ✕
                    </button>
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="theme-switch"
          onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
          aria-label="Switch light and dark theme"
        >
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
      </aside>
      <main className="main">
        <header className="topbar">
          <span className="model" data-testid="model">
            {info ? info.model : '…'}
          </span>
          {info ? (
            <span className="cwd" title={info.cwd}>
              {info.cwd}
            </span>
          ) : null}
        </header>
        {info?.note ? (
          <div className="demo-note" role="note" data-testid="demo-note">
            {info.note}
          </div>
        ) : null}
        {error ? (
          <div className="error-banner" role="alert">
            {error}
          </div>
        ) : null}
        {current === null ? (
          <div className="empty">
            <p>Open a session on the left, or start a new one.</p>
            <button type="button" className="ca-button" onClick={() => void newSession()}>
              Start a session
            </button>
          </div>
        ) : detail === null || detail.id !== current ? (
          <div className="empty">Loading…</div>
        ) : (
          <Suspense fallback={<div className="empty">Loading…</div>}>
            <ChatView
              key={detail.id}
              session={detail}
              modes={info?.modes ?? ['default']}
              onActivity={() => void refreshList()}
            />
          </Suspense>
        )}
      </main>
    </div>
  );
}
