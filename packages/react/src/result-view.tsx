import type { ArtifactVersionOption } from '@codeagent/artifact-schema';
import { toolResultArtifact, toolResultValue } from '@codeagent/artifact-schema';
import type { ReactNode } from 'react';
import { RenderBoundary } from './boundary.js';
import { type RendererRegistry, useRendererRegistry } from './registry.js';
import { inlineText } from './text.js';
import { ValueView } from './value.js';

/** Props of {@link ToolResultView}. */
export interface ToolResultViewProps {
  /**
   * A `ToolResult`, a tool-result event `{id, name, display, value, isError, artifact, view}` or a bare
   * artifact. Untrusted: anything else shows the portable value (or nothing when there is none).
   */
  result: unknown;
  /** Renderers to use instead of the nearest provider's (default: the built-in ones). */
  registry?: RendererRegistry | undefined;
  /** Artifact versions this view renders (default `1`); others show the portable value. */
  versions?: ArtifactVersionOption | undefined;
  /** Called when a renderer throws (the value is shown instead). */
  onRenderError?: ((error: unknown, kind: string) => void) | undefined;
  /** Show the artifact's title above it (default `false`: inside a card the card's title says it). */
  showTitle?: boolean | undefined;
}

function artifactOf(result: unknown, versions: ArtifactVersionOption | undefined) {
  try {
    return toolResultArtifact(result, versions === undefined ? undefined : { version: versions });
  } catch {
    // An invalid `versions` option is the host's bug; still never a crash.
    return null;
  }
}

/**
 * Renders a tool result by its artifact's kind and version. Falls back to the portable value for results
 * without a valid artifact, for versions outside `versions`, for kinds the registry lacks, for payloads the
 * renderer rejects and for a renderer that throws.
 */
export function ToolResultView({
  result,
  registry,
  versions,
  onRenderError,
  showTitle = false,
}: ToolResultViewProps): ReactNode {
  const inherited = useRendererRegistry();
  const renderers = registry ?? inherited;
  const value = toolResultValue(result);
  const fallback = <ValueView value={value} />;
  const artifact = artifactOf(result, versions);
  if (artifact === null) return <div className="ca-result ca-result-fallback">{fallback}</div>;
  const Renderer = renderers.get(artifact.kind);
  if (Renderer === undefined) return <div className="ca-result ca-result-fallback">{fallback}</div>;
  return (
    <div className="ca-result" data-kind={artifact.kind} data-status={artifact.status}>
      {showTitle && artifact.title !== null && artifact.title !== '' ? (
        <div className="ca-result-title">{inlineText(artifact.title)}</div>
      ) : null}
      <RenderBoundary
        fallback={<div className="ca-result-fallback">{fallback}</div>}
        onError={(error) => onRenderError?.(error, artifact.kind)}
      >
        <Renderer artifact={artifact} value={value} fallback={fallback} />
      </RenderBoundary>
    </div>
  );
}
