// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the .mcp.json expansion syntax under test
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { McpAdapterError, parseMcpConfig, readMcpConfigFile } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'codeagent-mcp-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseMcpConfig (the .mcp.json format)', () => {
  it('reads stdio and http servers with ${VAR} and ${VAR:-default} expansion', () => {
    const { servers, warnings } = parseMcpConfig(
      {
        mcpServers: {
          github: {
            command: 'npx',
            args: ['-y', 'gh-mcp', '--token=${GH_TOKEN}'],
            env: { TOKEN: '${GH_TOKEN}' },
          },
          docs: {
            type: 'http',
            url: 'https://${HOST:-docs.example.invalid}/mcp',
            headers: { Authorization: 'Bearer ${DOCS_KEY}' },
          },
          legacy: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp' },
        },
      },
      { env: { GH_TOKEN: 'ghp_x' } },
    );
    expect(servers).toEqual({
      github: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', 'gh-mcp', '--token=ghp_x'],
        env: { TOKEN: 'ghp_x' },
      },
      docs: { type: 'http', url: 'https://docs.example.invalid/mcp', headers: { Authorization: 'Bearer ' } },
      legacy: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} },
    });
    expect(warnings).toEqual(['mcpServers.docs: variable ${DOCS_KEY} is not set (expanded to "")']);
  });

  it('the top level may be the mcpServers table itself', () => {
    expect(Object.keys(parseMcpConfig({ a: { command: 'x' } }).servers)).toEqual(['a']);
  });

  it.each([
    [{ 'bad name!': { command: 'x' } }, /server name/],
    [{ a: 'x' }, /must be an object/],
    [{ a: { command: '' } }, /"command"/],
    [{ a: { command: 'x', args: [1] } }, /"args"/],
    [{ a: { command: 'x', env: { A: 1 } } }, /"env"/],
    [{ a: { type: 'http', url: 'file:///etc/passwd' } }, /http\(s\) URL/],
    [{ a: { type: 'http', url: 'https://x.invalid', headers: [] } }, /"headers"/],
    [{ a: { type: 'ws', url: 'x' } }, /unknown type/],
  ])('a bad entry %j is left out with a warning naming it', (table, why) => {
    const { servers, warnings } = parseMcpConfig({ mcpServers: table });
    expect(servers).toEqual({});
    expect(warnings[0]).toMatch(why);
  });

  it('a document that is not an object is a clear error', () => {
    for (const bad of [null, [], 'x', { mcpServers: [] }])
      expect(() => parseMcpConfig(bad)).toThrow(McpAdapterError);
  });

  it('property: never throws on any object, every kept server is well-formed', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (table) => {
        const { servers } = parseMcpConfig({ mcpServers: table });
        for (const s of Object.values(servers)) {
          if (s.type === 'http') expect(() => new URL(s.url)).not.toThrow();
          else expect(typeof s.command).toBe('string');
        }
      }),
    );
  });
});

describe('readMcpConfigFile fails closed', () => {
  it('reads a regular file', () => {
    const f = join(dir, 'ok.json');
    writeFileSync(f, JSON.stringify({ mcpServers: { a: { command: 'x' } } }));
    expect(Object.keys(readMcpConfigFile(f).servers)).toEqual(['a']);
  });

  it.each([
    [
      'a directory',
      () => {
        const p = join(dir, 'd');
        mkdirSync(p);
        return p;
      },
    ],
    [
      'a FIFO (never a hang)',
      () => {
        const p = join(dir, 'fifo');
        execFileSync('mkfifo', [p]);
        return p;
      },
    ],
    [
      'a symlink to /dev/zero',
      () => {
        const p = join(dir, 'zero');
        symlinkSync('/dev/zero', p);
        return p;
      },
    ],
    [
      'an oversized file',
      () => {
        const p = join(dir, 'big.json');
        writeFileSync(p, ' '.repeat(2 * 1024 * 1024));
        return p;
      },
    ],
    [
      'invalid JSON',
      () => {
        const p = join(dir, 'bad.json');
        writeFileSync(p, '{');
        return p;
      },
    ],
    [
      'not UTF-8',
      () => {
        const p = join(dir, 'latin.json');
        writeFileSync(p, Buffer.from([0x7b, 0xff, 0x7d]));
        return p;
      },
    ],
    ['a missing file', () => join(dir, 'missing.json')],
  ])('%s is a clear error naming the file', (_, make) => {
    const path = make();
    expect(() => readMcpConfigFile(path)).toThrow(
      expect.objectContaining({ message: expect.stringContaining(path) }),
    );
  });
});
