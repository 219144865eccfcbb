import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './chat-server.js';
import { BIN, tempRoot } from './run.js';
import { TmuxSession } from './tmux.js';

const sessions: TmuxSession[] = [];
const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ANSWER = `## Findings

The parser drops **trailing commas** and the \`tokenize\` step is slow when the input is long and full of nested brackets.

- fix the comma handling in the parser module first
- then profile \`tokenize\` on the large fixture

| file | lines |
|------|-------|
| parser.ts | 120 |

\`\`\`ts
export const ok = true;
\`\`\`
`;

/** The answer in small chunks, as a model streams it. */
const chunks = (text: string) => text.match(/[\s\S]{1,7}/gu) ?? [];

describe('Markdown in a pseudo-terminal', () => {
  it('renders streamed Markdown, wraps at word boundaries and follows a terminal resize', async () => {
    const dirs = await tempRoot();
    const server = await startOpenAIServer({ replies: () => ({ text: chunks(ANSWER), delayMs: 5 }) });
    servers.push(server);
    const cli = await TmuxSession.start({
      command: ['node', BIN, '--cwd', dirs.work, '--data-dir', dirs.data],
      cwd: dirs.work,
      env: {
        TERM: 'xterm-256color',
        HOME: dirs.home,
        FORCE_COLOR: '1',
        CODEAGENT_BASE_URL: server.baseURL,
        CODEAGENT_MODEL: 'm',
      },
      logDir: dirs.root,
      width: 60,
    });
    sessions.push(cli);
    await cli.waitFor(/^\/help for commands/m);
    await cli.type('what did you find?');
    await cli.keys('Enter');
    const screen = await cli.waitFor(/── [\s\S]*completed/);
    const answer = screen.slice(screen.indexOf('what did you find?'));
    expect(answer).toContain('\nFindings\n');
    expect(answer).not.toContain('## Findings');
    expect(answer).not.toContain('**');
    expect(answer).toContain('• fix the comma handling in the parser module first');
    expect(answer).toContain('parser.ts │ 120');
    expect(answer).toContain('│ export const ok = true;');
    const prose = answer
      .split('\n')
      .filter((l) => l.startsWith('The parser') || l.startsWith('is slow') || l.includes('nested'));
    expect(prose.length).toBeGreaterThan(1); // wrapped
    // The footer too breaks between its parts to fit.
    for (const line of answer.split('\n')) {
      expect(line.length, line).toBeLessThanOrEqual(60);
    }
    const raw = (await cli.raw()).toString('utf8');
    expect(raw).toContain('\u001b[1mtrailing commas\u001b[22m');

    await cli.resize(40);
    await cli.type('again, narrower');
    await cli.keys('Enter');
    const narrow = await cli.waitFor(/again, narrower[\s\S]*── [\s\S]*completed/);
    const second = narrow.slice(narrow.indexOf('again, narrower'));
    for (const line of second.split('\n')) {
      expect(line.length, line).toBeLessThanOrEqual(40);
    }
    expect(second).toContain('• fix the comma handling in the parser');
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  }, 60_000);
});
