import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpServersFromAcp } from '../src/index.js';

describe('MCP servers from the editor request', () => {
  it('maps stdio and http servers, env and headers as records', () => {
    const { servers, skipped } = mcpServersFromAcp(
      [
        { name: 'files', command: 'node', args: ['server.mjs'], env: [{ name: 'TOKEN', value: 't' }] },
        {
          type: 'http',
          name: 'docs',
          url: 'http://127.0.0.1:9/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer x' }],
        },
      ],
      { http: true },
    );
    expect({ ...servers }).toEqual({
      files: { type: 'stdio', command: 'node', args: ['server.mjs'], env: { TOKEN: 't' } },
      docs: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
    });
    expect(skipped).toEqual([]);
  });

  it('leaves out sse, http without support, duplicate and empty names, each with a reason', () => {
    const { servers, skipped } = mcpServersFromAcp(
      [
        { type: 'sse', name: 'old', url: 'http://x', headers: [] },
        { type: 'http', name: 'web', url: 'http://x', headers: [] },
        { name: 'my server', command: 'a', args: [], env: [] },
        { name: 'my:server', command: 'b', args: [], env: [] },
        { name: '!!!', command: 'c', args: [], env: [] },
        { name: '__proto__', command: 'd', args: [], env: [] },
      ],
      { http: false },
    );
    expect(Object.keys(servers)).toEqual(['my_server', '__proto__']);
    expect(Object.getPrototypeOf(servers)).toBeNull();
    expect(skipped).toHaveLength(4);
    expect(skipped.join('\n')).toMatch(/SSE/);
    expect(skipped.join('\n')).toMatch(/HTTP servers are not supported/);
    expect(skipped.join('\n')).toMatch(/already named my_server/);
  });

  it('property: names are always valid adapter-mcp server names', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 8 }), (names) => {
        const { servers } = mcpServersFromAcp(
          names.map((name) => ({ name, command: 'x', args: [], env: [] })),
          { http: true },
        );
        for (const name of Object.keys(servers)) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      }),
    );
  });
});
