import type { ToolArtifact } from '@codeagent/artifact-schema';
import { type ComponentType, createContext, type ReactNode, useContext } from 'react';
import { CodeRenderer } from './renderers/code.js';
import { DiffRenderer } from './renderers/diff.js';
import { ErrorRenderer } from './renderers/error.js';
import { ImageRenderer } from './renderers/image.js';
import { TableRenderer } from './renderers/table.js';
import { TextRenderer } from './renderers/text.js';

/** What a renderer receives: a validated artifact (its payload is still untrusted) and the fallback. */
export interface ArtifactRendererProps {
  /** The artifact, valid for the versions the view accepts; validate the payload before use. */
  artifact: ToolArtifact;
  /** The portable text of the result (the model-facing value). */
  value: string;
  /** The portable value as an element: render it when the payload is not one this renderer supports. */
  fallback: ReactNode;
}

/** A renderer for one artifact kind. It may throw: the view contains it and shows the value instead. */
export type ArtifactRenderer = ComponentType<ArtifactRendererProps>;

/** Renderers by artifact kind. Unknown kinds have none: the view falls back to the portable value. */
export interface RendererRegistry {
  /** The renderer of `kind`, if any. */
  get(kind: string): ArtifactRenderer | undefined;
  /** The kinds with a renderer, in registration order. */
  readonly kinds: readonly string[];
}

/** The built-in v1 renderers: `text`, `table`, `image`, `code`, `diff` and `error`. */
export const defaultRenderers: Readonly<Record<string, ArtifactRenderer>> = Object.freeze({
  text: TextRenderer,
  table: TableRenderer,
  image: ImageRenderer,
  code: CodeRenderer,
  diff: DiffRenderer,
  error: ErrorRenderer,
});

/** Options of {@link createRendererRegistry}. */
export interface RendererRegistryOptions {
  /** Renderers to start from (default {@link defaultRenderers}); `null` starts empty. */
  base?: RendererRegistry | Readonly<Record<string, ArtifactRenderer>> | null | undefined;
}

function entriesOf(
  source: RendererRegistry | Readonly<Record<string, ArtifactRenderer>>,
): Array<[string, ArtifactRenderer]> {
  if (
    typeof (source as RendererRegistry).get === 'function' &&
    Array.isArray((source as RendererRegistry).kinds)
  ) {
    const registry = source as RendererRegistry;
    return registry.kinds.flatMap((kind) => {
      const renderer = registry.get(kind);
      return renderer === undefined ? [] : [[kind, renderer] as [string, ArtifactRenderer]];
    });
  }
  return Object.entries(source as Readonly<Record<string, ArtifactRenderer>>);
}

/**
 * Builds a registry: the base renderers (default: {@link defaultRenderers}) with `renderers` added or
 * replacing them by kind. Lookups never reach `Object.prototype` (a kind named `constructor` has no renderer).
 * The result is immutable; derive another registry to change it.
 */
export function createRendererRegistry(
  renderers: Readonly<Record<string, ArtifactRenderer>> = {},
  options: RendererRegistryOptions = {},
): RendererRegistry {
  const map = new Map<string, ArtifactRenderer>();
  const base = options.base === undefined ? defaultRenderers : options.base;
  if (base !== null) for (const [kind, renderer] of entriesOf(base)) map.set(kind, renderer);
  for (const [kind, renderer] of Object.entries(renderers)) {
    if (typeof renderer !== 'function' && (typeof renderer !== 'object' || renderer === null)) {
      throw new TypeError(`renderer for kind ${JSON.stringify(kind)} must be a React component`);
    }
    map.set(kind, renderer);
  }
  const kinds = Object.freeze([...map.keys()]);
  return Object.freeze({ get: (kind: string) => map.get(kind), kinds });
}

const DEFAULT_REGISTRY = createRendererRegistry();
const RegistryContext = createContext<RendererRegistry>(DEFAULT_REGISTRY);

/** Props of {@link RendererRegistryProvider}. */
export interface RendererRegistryProviderProps {
  /** The registry every {@link ToolResultView} below uses unless given its own `registry` prop. */
  registry: RendererRegistry;
  /** The subtree. */
  children?: ReactNode;
}

/** Provides a renderer registry to the views below it. */
export function RendererRegistryProvider({ registry, children }: RendererRegistryProviderProps): ReactNode {
  return <RegistryContext.Provider value={registry}>{children}</RegistryContext.Provider>;
}

/** The registry in effect: the nearest {@link RendererRegistryProvider}'s, or the default one. */
export function useRendererRegistry(): RendererRegistry {
  return useContext(RegistryContext);
}
