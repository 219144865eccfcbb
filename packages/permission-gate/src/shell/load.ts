/**
 * `@codeagent/permission-gate/shell`: loads the bash grammar (`web-tree-sitter` with `tree-sitter-bash`) that
 * the gate parses commands with. Platform-neutral: the caller passes the two `.wasm` files as bytes or URLs
 * (Node hosts can use `loadInstalledShellGrammar` from `@codeagent/permission-gate/node`).
 *
 * @packageDocumentation
 */
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { installShellParser } from './analyse.js';
import type { ShellSyntaxNode, ShellSyntaxParser, ShellSyntaxTree } from './syntax.js';

export { isShellGrammarLoaded } from './analyse.js';
export type { ShellSyntaxNode, ShellSyntaxParser, ShellSyntaxTree } from './syntax.js';

/** A URL object (`new URL(...)`), typed structurally so the entry needs no DOM or Node types. */
export interface UrlLike {
  /** The whole URL. */
  readonly href: string;
}

/** A `.wasm` file: its bytes, or a URL (string or object) the runtime fetches it from. */
export type WasmSource = Uint8Array | ArrayBuffer | UrlLike | string;

function isLocation(s: WasmSource): s is UrlLike | string {
  return typeof s === 'string' || (!(s instanceof Uint8Array) && !(s instanceof ArrayBuffer));
}

function href(s: UrlLike | string): string {
  return typeof s === 'string' ? s : s.href;
}

/** The two WebAssembly files the bash grammar needs. */
export interface ShellGrammarSources {
  /** The tree-sitter runtime: `web-tree-sitter/web-tree-sitter.wasm`. */
  readonly runtime: WasmSource;
  /** The bash grammar: `tree-sitter-bash/tree-sitter-bash.wasm`. */
  readonly grammar: WasmSource;
}

let loading: Promise<void> | undefined;

function bytes(s: Uint8Array | ArrayBuffer): Uint8Array {
  return s instanceof Uint8Array ? s : new Uint8Array(s);
}

async function load(sources: ShellGrammarSources): Promise<void> {
  const { runtime, grammar } = sources;
  await Parser.init(
    isLocation(runtime) ? { locateFile: () => href(runtime) } : { wasmBinary: bytes(runtime) },
  );
  const bash = await Language.load(isLocation(grammar) ? href(grammar) : bytes(grammar));
  const parser = new Parser();
  parser.setLanguage(bash);
  const names = new NodeNames(bash);
  installShellParser({
    parse: (source) => {
      const tree = parser.parse(source);
      if (!tree) return null;
      try {
        return plainTree(tree, source, names);
      } finally {
        tree.delete();
      }
    },
  });
}

/** Node type and field names by id, read from the grammar once per id. */
class NodeNames {
  readonly #types: (readonly [string, boolean])[] = [];
  readonly #fields: (string | null)[] = [];

  constructor(private readonly language: Language) {}

  type(id: number): readonly [string, boolean] {
    let t = this.#types[id];
    if (!t) {
      t = [this.language.nodeTypeForId(id) ?? 'ERROR', this.language.nodeTypeIsNamed(id)];
      this.#types[id] = t;
    }
    return t;
  }

  field(id: number): string | null {
    if (id === 0) return null;
    let f = this.#fields[id];
    if (f === undefined) {
      f = this.language.fieldNameForId(id);
      this.#fields[id] = f;
    }
    return f;
  }
}

/** A syntax node copied out of the WebAssembly tree: the analyser then reads plain objects, not the runtime. */
class PlainNode implements ShellSyntaxNode {
  readonly children: PlainNode[] = [];
  hasError = false;
  #named: PlainNode[] | undefined;

  /** Missing nodes only occur in trees with errors, which the root's `hasError` (from the runtime) reports. */
  readonly isMissing = false;

  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly isNamed: boolean,
    readonly field: string | null,
    private readonly source: string,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): readonly PlainNode[] {
    this.#named ??= this.children.filter((c) => c.isNamed);
    return this.#named;
  }

  childForFieldName(name: string): PlainNode | null {
    return this.children.find((c) => c.field === name) ?? null;
  }

  seal(): void {
    this.hasError ||= this.type === 'ERROR' || this.children.some((c) => c.hasError);
  }
}

/** Copies a tree with one cursor walk (far fewer calls into the runtime than reading nodes one by one). */
function plainTree(tree: Tree, source: string, names: NodeNames): ShellSyntaxTree {
  const cursor = tree.walk();
  try {
    const make = () => {
      const [type, named] = names.type(cursor.nodeTypeId);
      return new PlainNode(
        type,
        cursor.startIndex,
        cursor.endIndex,
        named,
        names.field(cursor.currentFieldId),
        source,
      );
    };
    const root = make();
    root.hasError = tree.rootNode.hasError;
    const path: PlainNode[] = [root];
    let descend = true;
    for (;;) {
      if (descend && cursor.gotoFirstChild()) {
        const n = make();
        path[path.length - 1]?.children.push(n);
        path.push(n);
        continue;
      }
      path.pop()?.seal();
      if (cursor.gotoNextSibling()) {
        const n = make();
        path[path.length - 1]?.children.push(n);
        path.push(n);
        descend = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descend = false;
    }
    while (path.length > 0) path.pop()?.seal();
    return { rootNode: root, delete: () => undefined };
  } finally {
    cursor.delete();
  }
}

/**
 * Loads the bash grammar once for every gate in this JavaScript realm; later calls return the same promise
 * (a failed load can be retried). Until it resolves, a command that is not plain words fails closed: deny and
 * ask rules of the tool may apply (the gate asks) and allow rules do not.
 */
export function loadShellGrammar(sources: ShellGrammarSources): Promise<void> {
  if (loading) return loading;
  const p = load(sources);
  loading = p;
  p.catch(() => {
    if (loading === p) loading = undefined;
  });
  return p;
}

/** Uses another bash parser (e.g. native tree-sitter bindings) producing the same tree shape. */
export function useShellParser(parser: ShellSyntaxParser): void {
  installShellParser(parser);
}
