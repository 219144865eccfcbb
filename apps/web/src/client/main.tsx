import '@codeagent/react/styles.css';
import './app.css';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
