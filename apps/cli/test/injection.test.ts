import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findUnsafeTerminalBytes, loadInjectionCorpus } from '@codeagent/terminal/corpus';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const run = promisify(execFile);
const { payloads } = loadInjectionCorpus();

/** A file-name-safe version of a payload (no `/`, no NUL), still full of escapes. */
const asFileName = (p: string, i: number) => `f${i}-${p.replace(/[/\u0000]/g, '_').slice(0, 120)}.txt`;
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe('terminal injection through the real CLI', () => {
  it(`writes no escape but SGR for ${payloads.length} payloads in model text, titles, file names and tool output`, async () => {
    expect(payloads.length).toBeGreaterThanOrEqual(50);
    const root = await mkdtemp(join(tmpdir(), 'codeagent-inject-'));
    const work = join(root, 'work');
    await mkdir(join(work, 'names'), { recursive: true });
    await writeFile(join(work, 'payloads.txt'), payloads.map((p) => p.payload).join('\n'));
    for (const [i, p] of payloads.entries())
      await writeFile(join(work, 'names', asFileName(p.payload, i)), p.payload);

    const script = [
      {
        parts: [
          { type: 'reasoning', text: payloads.map((p) => p.payload).join(' | ') },
          { type: 'text', text: `${payloads.map((p) => p.payload).join(' ¦ ')}\n` },
          {
            type: 'tool-call',
            toolName: 'Bash',
            input: {
              command: 'cat payloads.txt; printf "\\033[32mgreen-ok\\033[0m\\n"',
              description: payloads[0]?.payload,
            },
          },
          { type: 'tool-call', toolName: 'Glob', input: { pattern: 'names/*' } },
          { type: 'tool-call', toolName: 'Grep', input: { pattern: '.', path: 'names' } },
          { type: 'tool-call', toolName: 'Read', input: { file_path: 'payloads.txt' } },
          ...payloads.slice(0, 20).map((p, i) => ({
            type: 'tool-call',
            toolName: 'Bash',
            input: {
              command: `printf %s ${shellQuote(p.payload.replace(/\u0000/g, ''))} # ${i}`,
              description: p.payload,
            },
          })),
          ...payloads.slice(20, 40).map((p, i) => ({
            type: 'tool-call',
            toolName: 'Write',
            input: { file_path: `out/${asFileName(p.payload, i)}`, content: p.payload },
          })),
        ],
      },
      { parts: [{ type: 'text', text: payloads.map((p) => `${p.id}:${p.payload}`).join('\n') }] },
    ];
    await writeFile(join(root, 's.json'), JSON.stringify(script));
    const { stdout, stderr } = await run(
      'node',
      [
        BIN,
        '-p',
        payloads.map((p) => p.payload.replace(/\u0000/g, '')).join(' '),
        '--mode',
        'bypass',
        '--verbose',
        '--script',
        join(root, 's.json'),
        '--cwd',
        work,
        '--data-dir',
        join(root, 'data'),
      ],
      { env: { PATH: process.env.PATH ?? '', HOME: root, FORCE_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 },
    );
    expect(findUnsafeTerminalBytes(stdout), stdout.slice(0, 400)).toEqual([]);
    expect(findUnsafeTerminalBytes(stderr)).toEqual([]);
    // Colours from tool output survive in the cards (stderr with --verbose), and the calls really ran.
    expect(stderr).toContain('\u001b[32mgreen-ok');
    expect(stderr).toMatch(/completed/);
    // The answer alone is on stdout, sanitised the same way.
    for (const p of payloads) for (const keep of p.keep) expect(stdout).toContain(keep);
    for (const p of payloads) for (const keep of p.keep) expect(stderr).toContain(keep);
  }, 60_000);
});
