// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the .mcp.json expansion syntax under test
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  collectMcpServers,
  findProjectMcpFile,
  McpAdapterError,
  McpApprovalStore,
  mcpServerFingerprint,
  parseMcpConfig,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'codeagent-mcp-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name = 'case') => {
  const d = join(dir, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};
const json = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));

describe('mcpServerFingerprint', () => {
  it('ignores key order and sees every other change (command, argument, env value, url, header)', () => {
    const entry = { command: 'node', args: ['a.js'], env: { A: '1', B: '${B}' } };
    const same = { env: { B: '${B}', A: '1' }, args: ['a.js'], command: 'node' };
    const base = mcpServerFingerprint(entry);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(mcpServerFingerprint(same)).toBe(base);
    for (const changed of [
      { ...entry, command: 'nodejs' },
      { ...entry, args: ['a.js', '--x'] },
      { ...entry, args: ['a.js '] },
      { ...entry, env: { A: '1', B: '${B}', NODE_OPTIONS: '--require evil' } },
      { ...entry, env: { A: '2', B: '${B}' } },
      { ...entry, cwd: '/tmp' },
    ])
      expect(mcpServerFingerprint(changed)).not.toBe(base);
    const http = { type: 'http', url: 'https://a.invalid/mcp', headers: { X: '1' } };
    expect(mcpServerFingerprint({ ...http, headers: { X: '2' } })).not.toBe(mcpServerFingerprint(http));
  });

  it('is the same for equal JSON values whatever the key order, and differs for different ones (property)', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(value, (v) => {
        const shuffled = JSON.parse(JSON.stringify(v, (_k, x) => reorder(x)));
        expect(mcpServerFingerprint(shuffled)).toBe(mcpServerFingerprint(v));
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(value, value, (a, b) => {
        fc.pre(canonicalJson(a) !== canonicalJson(b));
        expect(mcpServerFingerprint(a)).not.toBe(mcpServerFingerprint(b));
      }),
      { numRuns: 200 },
    );
  });

  it('a deeply nested or huge entry gives a fingerprint, never a crash or a hang', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(mcpServerFingerprint(deep)).toMatch(/^[0-9a-f]{64}$/);
    expect(mcpServerFingerprint({ args: Array.from({ length: 100_000 }, (_, i) => `a${i}`) })).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it('parseMcpConfig reports the fingerprint of each valid entry as written, before ${VAR} expansion', () => {
    const entry = { command: 'x', args: ['${TOKEN}'] };
    const one = parseMcpConfig({ mcpServers: { a: entry, bad: 'no' } }, { env: { TOKEN: 'one' } });
    const two = parseMcpConfig({ mcpServers: { a: entry } }, { env: { TOKEN: 'two' } });
    expect(one.fingerprints).toEqual({ a: mcpServerFingerprint(entry) });
    expect(two.fingerprints.a).toBe(one.fingerprints.a);
    expect(one.entries.a).toEqual(entry);
    // A __proto__ server name is refused, not turned into the prototype of the table.
    const proto = parseMcpConfig(JSON.parse('{"mcpServers": {"__proto__": {"command": "x"}}}'));
    expect(proto.servers).toEqual({});
    expect(proto.warnings[0]).toMatch(/server name/);
  });
});

function reorder(x: unknown): unknown {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return x;
  return Object.fromEntries(Object.entries(x).reverse());
}

function canonicalJson(x: unknown): string {
  return JSON.stringify(x, (_k, v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

describe('findProjectMcpFile', () => {
  it('finds the nearest .mcp.json from the folder up to the repository root, never above it', () => {
    const outer = fresh('outer');
    json(join(outer, '.mcp.json'), { mcpServers: {} });
    const repo = join(outer, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'a', 'b'), { recursive: true });
    // Above the repository root: not the project's.
    expect(findProjectMcpFile(join(repo, 'a', 'b'))).toBeNull();
    json(join(repo, '.mcp.json'), { mcpServers: {} });
    expect(findProjectMcpFile(join(repo, 'a', 'b'))).toBe(join(repo, '.mcp.json'));
    json(join(repo, 'a', '.mcp.json'), { mcpServers: {} });
    expect(findProjectMcpFile(join(repo, 'a', 'b'))).toBe(join(repo, 'a', '.mcp.json'));
    // Outside any repository only the folder itself counts.
    const loose = fresh('loose');
    mkdirSync(join(loose, 'sub'));
    json(join(loose, '.mcp.json'), {});
    expect(findProjectMcpFile(join(loose, 'sub'))).toBeNull();
    expect(findProjectMcpFile(loose)).toBe(join(loose, '.mcp.json'));
  });
});

describe('collectMcpServers', () => {
  it('explicit files beat the user file, which beats the project file; each shadowed entry is named', () => {
    const work = fresh('work');
    const user = join(fresh('user'), 'mcp.json');
    const x1 = join(work, '..', `x1-${n}.json`);
    const x2 = join(work, '..', `x2-${n}.json`);
    json(join(work, '.mcp.json'), {
      mcpServers: { shared: { command: 'project' }, mine: { command: 'project' }, proj: { command: 'p' } },
    });
    json(user, { mcpServers: { shared: { command: 'user' }, mine: { command: 'user' } } });
    json(x1, { mcpServers: { shared: { command: 'x1' } } });
    json(x2, { mcpServers: { shared: { command: 'x2' } } });
    const got = collectMcpServers({ cwd: work, explicitFiles: [x1, x2], userFile: user });
    const by = Object.fromEntries(got.servers.map((s) => [s.name, s]));
    expect(by.shared?.scope).toBe('explicit');
    expect(by.shared?.config).toEqual({ type: 'stdio', command: 'x2', args: [], env: {} });
    expect(by.mine?.scope).toBe('user');
    expect(by.proj?.scope).toBe('project');
    expect(by.proj?.fingerprint).toBe(mcpServerFingerprint({ command: 'p' }));
    expect(got.projectFile).toBe(join(work, '.mcp.json'));
    expect(got.workspace).toBe(work);
    expect(got.warnings).toEqual([
      `${user}: server shared is also defined in ${x2}, which is used`,
      `${join(work, '.mcp.json')}: server shared is also defined in ${x2}, which is used`,
      `${join(work, '.mcp.json')}: server mine is also defined in ${user}, which is used`,
    ]);
    expect(collectMcpServers({ cwd: work, project: false }).servers).toEqual([]);
  });

  it('an unreadable explicit file throws; an unreadable project file starts nothing and says why', () => {
    const work = fresh('work');
    expect(() => collectMcpServers({ cwd: work, explicitFiles: [join(work, 'missing.json')] })).toThrow(
      McpAdapterError,
    );
    writeFileSync(join(work, '.mcp.json'), '{"mcpServers": {"a": {"command": "x"}');
    const broken = collectMcpServers({ cwd: work });
    expect(broken.servers).toEqual([]);
    expect(broken.warnings[0]).toMatch(/is not valid JSON: .*; none of its servers is started$/);
    rmSync(join(work, '.mcp.json'));
    execFileSync('mkfifo', [join(work, '.mcp.json')]);
    const fifo = collectMcpServers({ cwd: work });
    expect(fifo.servers).toEqual([]);
    expect(fifo.warnings[0]).toMatch(/not a regular file/);
    rmSync(join(work, '.mcp.json'));
    symlinkSync('/dev/zero', join(work, '.mcp.json'));
    expect(collectMcpServers({ cwd: work }).warnings[0]).toMatch(/not a regular file/);
  });

  it('the workspace of a linked folder is its real path', () => {
    const real = fresh('real');
    json(join(real, '.mcp.json'), { mcpServers: { a: { command: 'x' } } });
    const link = join(dir, `link-${++n}`);
    symlinkSync(real, link);
    expect(collectMcpServers({ cwd: link }).workspace).toBe(real);
  });
});

describe('McpApprovalStore', () => {
  it('remembers answers per workspace, server and fingerprint, in a 0600 file outside the project', async () => {
    const data = fresh('data');
    const store = new McpApprovalStore(join(data, 'nested', 'mcp-approvals.json'));
    expect(await store.decision('/w', 'a', 'f1')).toBeUndefined();
    await store.record('/w', 'a', 'f1', 'approved');
    await store.record('/w', 'b', 'f2', 'denied');
    await store.record('/other', 'a', 'f1', 'denied');
    expect(await store.decision('/w', 'a', 'f1')).toBe('approved');
    // Another definition of the same server is not approved.
    expect(await store.decision('/w', 'a', 'f1-changed')).toBeUndefined();
    expect(await store.decision('/w', 'b', 'f2')).toBe('denied');
    expect(await store.decision('/other', 'a', 'f1')).toBe('denied');
    expect(await store.decision('/w2', 'a', 'f1')).toBeUndefined();
    expect(Object.keys(await store.list('/w'))).toEqual(['a', 'b']);
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    await store.forget('/w', 'a');
    expect(await store.decision('/w', 'a', 'f1')).toBeUndefined();
    expect(await store.decision('/w', 'b', 'f2')).toBe('denied');
    await store.forget('/w');
    expect(await store.list('/w')).toEqual({});
    // The prototype is not a workspace or a server.
    expect(await store.decision('__proto__', 'constructor', 'x')).toBeUndefined();
    await store.record('__proto__', '__proto__', 'p', 'approved');
    expect(await store.decision('__proto__', '__proto__', 'p')).toBe('approved');
    expect(await store.decision('/any', '__proto__', 'p')).toBeUndefined();
    expect(JSON.parse(readFileSync(store.file, 'utf8')).version).toBe(1);
  });

  it('a damaged or hostile file is an error naming it, never a silent approval', async () => {
    const data = fresh('data');
    const file = join(data, 'a.json');
    const store = new McpApprovalStore(file);
    for (const text of [
      'not json',
      '[]',
      '{"version": 2, "workspaces": {}}',
      '{"version": 1, "workspaces": []}',
    ]) {
      writeFileSync(file, text);
      await expect(store.decision('/w', 'a', 'f')).rejects.toThrow(file);
      await expect(store.record('/w', 'a', 'f', 'approved')).rejects.toThrow(file);
    }
    // Malformed entries are not answers.
    json(file, {
      version: 1,
      workspaces: {
        '/w': { a: { fingerprint: 'f', decision: 'yes' }, b: { decision: 'approved' }, c: 'approved' },
      },
    });
    for (const s of ['a', 'b', 'c']) expect(await store.decision('/w', s, 'f')).toBeUndefined();
    rmSync(file);
    execFileSync('mkfifo', [file]);
    await expect(store.decision('/w', 'a', 'f')).rejects.toThrow(/not a regular file/);
  });

  it('reads back any answers it wrote (property)', async () => {
    const data = fresh('data');
    const names = fc.string({ minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(names, names, fc.stringMatching(/^[0-9a-f]{0,8}$/), fc.boolean()), {
          maxLength: 8,
        }),
        async (answers) => {
          const store = new McpApprovalStore(join(data, `p-${++n}.json`));
          const expected = new Map<string, [string, boolean]>();
          for (const [w, s, f, yes] of answers) {
            await store.record(w, s, f, yes ? 'approved' : 'denied');
            expected.set(JSON.stringify([w, s]), [f, yes]);
          }
          for (const [key, [f, yes]] of expected) {
            const [w, s] = JSON.parse(key) as [string, string];
            expect(await store.decision(w, s, f)).toBe(yes ? 'approved' : 'denied');
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
