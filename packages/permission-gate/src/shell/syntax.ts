/**
 * The few syntax-tree operations the command analyser uses, in the shape `web-tree-sitter` nodes have.
 * Declared here so the platform-neutral root entry never imports the parser runtime.
 */

/** A node of a bash syntax tree (structurally a `web-tree-sitter` `Node`). */
export interface ShellSyntaxNode {
  /** The grammar's node type (`command`, `word`, `ERROR`...). */
  readonly type: string;
  /** The source text the node spans. */
  readonly text: string;
  /** True for a node the parser inserted to recover from an error. */
  readonly isMissing: boolean;
  /** True when the node or a descendant is an error or missing node. */
  readonly hasError: boolean;
  /** The named children, in source order. */
  readonly namedChildren: readonly (ShellSyntaxNode | null)[];
  /** All children (named and anonymous tokens), in source order. */
  readonly children: readonly (ShellSyntaxNode | null)[];
  /** Where the node starts in the source string. */
  readonly startIndex: number;
  /** Where the node ends in the source string. */
  readonly endIndex: number;
  /** The child stored under a field name (`name`, `destination`...). */
  childForFieldName(name: string): ShellSyntaxNode | null;
}

/** A parse result that must be released after use. */
export interface ShellSyntaxTree {
  /** The root (`program`) node. */
  readonly rootNode: ShellSyntaxNode;
  /** Frees the tree's memory in the parser runtime. */
  delete(): void;
}

/** Parses bash source into a syntax tree (synchronously, once its grammar is loaded). */
export interface ShellSyntaxParser {
  /** The tree, or `null` when the parser gave up. */
  parse(source: string): ShellSyntaxTree | null;
}
