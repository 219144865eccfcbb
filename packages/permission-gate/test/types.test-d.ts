import { describe, expectTypeOf, it } from 'vitest';
import type { ShellGrammarSources, WasmSource } from '../src/shell/load.js';
import {
  type AskCallback,
  type AskResult,
  type Capability,
  type CheckSource,
  createPermissionGate,
  type Decision,
  type DecisionSource,
  type Evaluation,
  type PermissionGate,
  type PermissionGateTarget,
  type ShellAnalysis,
  type PermissionMode,
  type ToolPolicy,
  type GrantScope,
  type SessionGrant,
} from '../src/index.js';

describe('types', () => {
  it('closed unions', () => {
    expectTypeOf<Capability>().toEqualTypeOf<'read' | 'write' | 'exec' | 'net'>();
    expectTypeOf<PermissionMode>().toEqualTypeOf<
      'default' | 'plan' | 'accept_edits' | 'bypass' | 'dont_ask'
    >();
    expectTypeOf<Decision>().toEqualTypeOf<'allow' | 'ask' | 'deny'>();
    expectTypeOf<DecisionSource['kind']>().toEqualTypeOf<
      'set' | 'override' | 'capability' | 'rule' | 'mode' | 'protected' | 'error'
    >();
    expectTypeOf<GrantScope['kind']>().toEqualTypeOf<
      'command-prefix' | 'command' | 'path' | 'argument' | 'tool'
    >();
    expectTypeOf<SessionGrant>().toExtend<{ id: string; tool: string }>();
    expectTypeOf<CheckSource['kind']>().toEqualTypeOf<DecisionSource['kind'] | 'ask' | 'grant'>();
  });

  it('narrows the provenance union by kind', () => {
    const e = createPermissionGate().evaluate('Bash', {});
    expectTypeOf(e).toEqualTypeOf<Evaluation>();
    if (e.source.kind === 'rule') expectTypeOf(e.source.list).toEqualTypeOf<Decision>();
    if (e.source.kind === 'mode') expectTypeOf(e.source.mode).toEqualTypeOf<PermissionMode>();
    if (e.source.kind === 'protected') expectTypeOf(e.source.entry).toEqualTypeOf<string>();
  });

  it('ask callbacks may return booleans, grants or promises of them', () => {
    expectTypeOf<() => true>().toExtend<AskCallback>();
    expectTypeOf<() => Promise<boolean>>().toExtend<AskCallback>();
    expectTypeOf<() => { allow: true; scope: 'session' }>().toExtend<AskCallback>();
    expectTypeOf<AskResult>().toEqualTypeOf<
      boolean | { readonly allow: true; readonly scope: 'once' | 'session' }
    >();
    // @ts-expect-error a string answer is not an ask result (it would deny at runtime)
    const bad: AskCallback = () => 'yes';
    void bad;
  });

  it('policies are typed by capability and decision', () => {
    const ok: ToolPolicy = { capabilities: { exec: 'ask' }, overrides: { Summarise: 'allow' } };
    void ok;
    // @ts-expect-error rwx is not a capability
    const badCap: ToolPolicy = { capabilities: { rwx: 'allow' } };
    // @ts-expect-error maybe is not a decision
    const badDecision: ToolPolicy = { overrides: { Bash: 'maybe' } };
    void badCap;
    void badDecision;
  });

  it('a target is anything with the approval hook', () => {
    const target = {
      gate: null as PermissionGate | null,
      setPermissionGate(g: PermissionGate | null) {
        this.gate = g;
      },
      getPermissionGate() {
        return this.gate;
      },
    };
    expectTypeOf(target).toExtend<PermissionGateTarget>();
    expectTypeOf({ setPermissionGate() {} }).not.toExtend<PermissionGateTarget>();
  });

  it('a rule source may say why the command could not be analysed; analyses and grammar sources are typed', () => {
    type RuleSource = Extract<DecisionSource, { kind: 'rule' }>;
    expectTypeOf<RuleSource['unanalysable']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ShellAnalysis['commands']>().toEqualTypeOf<readonly (readonly string[])[]>();
    expectTypeOf<ShellAnalysis['unanalysable']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<WasmSource>().toExtend<ShellGrammarSources['grammar']>();
    expectTypeOf(new Uint8Array(1)).toExtend<WasmSource>();
    expectTypeOf({ href: 'https://x/a.wasm' }).toExtend<WasmSource>();
    // @ts-expect-error a number is not a wasm source
    const bad: WasmSource = 42;
    void bad;
  });
});
