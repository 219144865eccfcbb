import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, serverEnv, startOpenAIServer } from './chat-server.js';
import { runBin, tempRoot } from './run.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function systemOf(server: OpenAIServer): string {
  const first = server.requests[0]?.body.messages?.[0];
  expect(first?.role).toBe('system');
  return String(first?.content);
}

describe('the system prompt a real model receives', () => {
  it('has role, cwd, platform, date, git state, tool conventions and the instruction files', async () => {
    const { home, work, data, root } = await tempRoot();
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: root });
    await writeFile(join(root, 'AGENTS.md'), 'Root rule: use pnpm.\n');
    await writeFile(join(work, 'CLAUDE.md'), 'Work rule: tabs, not spaces.\n');
    await mkdir(join(home, '.codeagent'), { recursive: true });
    await writeFile(join(home, '.codeagent', 'AGENTS.md'), 'User rule: be terse.\n');
    await writeFile(join(root, 'secret.txt'), 'TOP SECRET\n');
    await symlink(join(root, '..'), join(work, 'GEMINI.md')).catch(() => undefined);
    const server = await startOpenAIServer({ replies: [{ text: 'ok' }] });
    servers.push(server);
    const r = await runBin(['-p', 'hi', '--verbose', '--cwd', work, '--data-dir', data], {
      ...serverEnv(server, home),
      NO_COLOR: '1',
    });
    expect(r.code, r.stderr).toBe(0);
    const system = systemOf(server);
    expect(system).toMatch(/^You are codeagent, a coding agent/u);
    expect(system).toContain(`- Working directory: ${work}`);
    expect(system).toContain(`- Platform: ${process.platform}`);
    expect(system).toMatch(/- Date: \d{4}-\d{2}-\d{2}/u);
    expect(system).toContain('- Git: branch trunk');
    expect(system).toContain('- Edit replaces one exact, unique `old_string`');
    const order = ['User rule: be terse.', 'Root rule: use pnpm.', 'Work rule: tabs, not spaces.'].map((t) =>
      system.indexOf(t),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(system).toContain('<project_instructions source="work/CLAUDE.md">');
    expect(system).not.toContain('TOP SECRET');
    // The banner names the files, on stderr.
    expect(r.stderr).toMatch(
      /system prompt \d+\.\d kB · instructions: ~\/\.codeagent\/AGENTS\.md, AGENTS\.md, work\/CLAUDE\.md/u,
    );
  });

  it('--system-prompt replaces the built-in rules, --append-system-prompt adds to the end', async () => {
    const { home, work, data } = await tempRoot();
    const server = await startOpenAIServer({ replies: [{ text: 'ok' }, { text: 'ok' }] });
    servers.push(server);
    const env = serverEnv(server, home);
    await runBin(
      ['-p', 'hi', '--system-prompt', 'You are a pirate.', '--cwd', work, '--data-dir', data],
      env,
    );
    const replaced = systemOf(server);
    expect(replaced.startsWith('You are a pirate.\n\n# Environment')).toBe(true);
    expect(replaced).not.toContain('You are codeagent');
    server.requests.length = 0;
    await runBin(
      ['-p', 'hi', '--append-system-prompt', 'Always answer in French.', '--cwd', work, '--data-dir', data],
      env,
    );
    const appended = systemOf(server);
    expect(appended).toMatch(/^You are codeagent/u);
    expect(appended.trimEnd().endsWith('Always answer in French.')).toBe(true);
  });
});
