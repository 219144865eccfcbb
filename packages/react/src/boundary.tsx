import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Props of {@link RenderBoundary}. */
interface RenderBoundaryProps {
  /** Shown instead of `children` once they threw. */
  fallback: ReactNode;
  /** Told about the error (e.g. for logging); its own errors are ignored. */
  onError?: ((error: unknown) => void) | undefined;
  /** Content that may throw while rendering. */
  children?: ReactNode;
}

/** Contains a renderer that throws: the fallback (the portable value) is shown instead of a blank page. */
export class RenderBoundary extends Component<RenderBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    try {
      this.props.onError?.(error);
    } catch {
      // A throwing error reporter must not take the fallback down with it.
    }
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
