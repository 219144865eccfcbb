import '@codeagent/react/styles.css';
import './app.css';

/**
 * Starts the page in steps, each evaluated in a task of its own (a module graph evaluates in one task): React DOM
 * first, then the app. The chat view loads in further steps when a session opens (chat-loader.ts).
 */
async function start(): Promise<void> {
  const { createRoot } = await import('react-dom/client');
  const { App } = await import('./app.tsx');
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App />);
}

void start();
