// The code highlighter's worker: shiki compiles its grammars and tokenises here, never on the page's main thread.
import { type HighlightPort, serveHighlighter } from '@codeagent/react/highlight';

serveHighlighter(self as unknown as HighlightPort);
