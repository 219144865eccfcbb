import {
  renderArtifact,
  renderToolCall,
  renderToolCard,
  renderToolResult,
  type TerminalRenderOptions,
} from '../src/index.js';
import { artifact, result } from './helpers.js';

/** One place an untrusted string can reach the terminal; `full` when the whole string is shown untruncated. */
export interface Context {
  readonly name: string;
  readonly full: boolean;
  readonly render: (s: string, o: TerminalRenderOptions) => string;
}

/** Every place a tool or model string reaches the rendered frame. */
export const CONTEXTS: readonly Context[] = [
  {
    name: 'terminal output',
    full: true,
    render: (s, o) => renderToolResult({ card: 'terminal', output: s, exitCode: 1 }, {}, o),
  },
  {
    name: 'terminal value fallback',
    full: true,
    render: (s, o) => renderToolResult({ card: 'terminal' }, { value: s }, o),
  },
  {
    name: 'text artifact',
    full: true,
    render: (s, o) => renderArtifact(result('v', artifact('text', { text: s })), o),
  },
  {
    name: 'value of an unknown kind',
    full: true,
    render: (s, o) => renderArtifact(result(s, artifact('widget', {})), o),
  },
  {
    name: 'generic content block',
    full: true,
    render: (s, o) => renderToolResult({ card: 'generic', content: [{ type: 'text', text: s }] }, {}, o),
  },
  {
    name: 'artifact title',
    full: false,
    render: (s, o) => renderArtifact(result('v', artifact('text', { text: 't' }, { title: s })), o),
  },
  {
    name: 'generic call title',
    full: false,
    render: (s, o) => renderToolCall({ card: 'generic', title: s, rawInput: { s } }, o),
  },
  {
    name: 'terminal call',
    full: false,
    render: (s, o) => renderToolCall({ card: 'terminal', title: s, description: s, cwd: s }, o),
  },
  {
    name: 'result title',
    full: false,
    render: (s, o) => renderToolResult({ card: 'generic', title: s }, { value: 'v' }, o),
  },
  {
    name: 'location path',
    full: false,
    render: (s, o) => renderToolCall({ card: 'generic', title: 't', locations: [{ path: s, line: 3 }] }, o),
  },
  {
    name: 'code filename and lang',
    full: false,
    render: (s, o) => renderArtifact(result('v', artifact('code', { text: 'x', filename: s, lang: s })), o),
  },
  {
    name: 'code text',
    full: true,
    render: (s, o) => renderArtifact(result('v', artifact('code', { text: s, lang: 'typescript' })), o),
  },
  {
    name: 'code output',
    full: true,
    render: (s, o) => renderArtifact(result('v', artifact('code', { text: 'x', output: s })), o),
  },
  {
    name: 'diff path',
    full: false,
    render: (s, o) => renderArtifact(result('v', artifact('diff', { old: 'a', new: 'b', path: s })), o),
  },
  {
    name: 'diff old text',
    full: false,
    render: (s, o) => renderArtifact(result('v', artifact('diff', { old: s, new: 'b' })), o),
  },
  {
    name: 'diff new text',
    full: false,
    render: (s, o) => renderArtifact(result('v', artifact('diff', { old: 'a', new: s })), o),
  },
  {
    name: 'diff card',
    full: false,
    render: (s, o) =>
      renderToolCard(
        {
          call: { card: 'diff', title: s, diffs: [{ path: s, oldText: null, newText: s }] },
          result: { card: 'diff', diffs: [{ path: s, oldText: s, newText: `${s}!` }] },
        },
        o,
      ),
  },
  {
    name: 'table cell',
    full: false,
    render: (s, o) =>
      renderArtifact(
        result(
          'v',
          artifact('table', {
            df: [
              { a: s, b: 1 },
              { a: 'x', b: s },
            ],
          }),
        ),
        o,
      ),
  },
  {
    name: 'table column name',
    full: false,
    render: (s, o) =>
      renderArtifact(result('v', artifact('table', { df: [{ [s]: 1 }], columns: [{ name: s }] })), o),
  },
  {
    name: 'error message',
    full: false,
    render: (s, o) => renderArtifact(result('v', artifact('error', { message: s, detail: s })), o),
  },
  {
    name: 'image mime',
    full: false,
    render: (s, o) =>
      renderArtifact(result('v', artifact('image', { images: [{ mime: s, b64: s }], output: s })), o),
  },
  {
    name: 'content image mime',
    full: false,
    render: (s, o) =>
      renderToolCall({ card: 'generic', title: 't', content: [{ type: 'image', mime: s, b64: 'AA==' }] }, o),
  },
  {
    name: 'signal name',
    full: false,
    render: (s, o) => renderToolResult({ card: 'terminal', output: 'x', signal: s }, {}, o),
  },
  {
    name: 'unknown kind name',
    full: false,
    render: (s, o) => renderArtifact(artifact(s.length > 0 ? s : 'k', {}), o),
  },
];
