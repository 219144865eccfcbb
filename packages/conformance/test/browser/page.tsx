import '@codeagent/react/styles.css';
import { ToolResultView } from '@codeagent/react';
import { toolResultValue } from '@codeagent/artifact-schema';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

// The page the web renderer suite drives: `?renderer=broken` mounts a deliberately broken renderer that inserts the
// value as HTML, so the test can show the suite catches it.
const root = createRoot(document.getElementById('root') as HTMLElement);
const broken = new URLSearchParams(location.search).get('renderer') === 'broken';

function Broken({ result }: { result: unknown }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the deliberately broken renderer under test
  return <div dangerouslySetInnerHTML={{ __html: toolResultValue(result) }} />;
}

(window as unknown as Record<string, (input: unknown) => Promise<void>>).__codeagentRender = (input) => {
  flushSync(() => root.render(broken ? <Broken result={input} /> : <ToolResultView result={input} />));
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
};
