import { expectTypeOf, it } from 'vitest';
import type { McpServerConfig, McpServerPolicy } from '../src/index.js';

it('a server config is stdio or http, told apart by type', () => {
  const config = {} as McpServerConfig;
  if (config.type === 'http') expectTypeOf(config.url).toEqualTypeOf<string>();
  else expectTypeOf(config.command).toEqualTypeOf<string>();
  // @ts-expect-error an http server needs a url
  const bad: McpServerConfig = { type: 'http' };
  void bad;
});

it('capabilities are the gate capabilities', () => {
  expectTypeOf<NonNullable<McpServerPolicy['capability']>>().toEqualTypeOf<
    'read' | 'write' | 'exec' | 'net'
  >();
});
