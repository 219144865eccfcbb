import type { ToolCallKind } from '@codeagent/render-intent';
import { assertNever } from '@codeagent/render-intent';
import type { ReactNode } from 'react';

/** The glyph of each call kind (text, so no icon font or image request is needed). */
export function kindGlyph(kind: ToolCallKind): string {
  switch (kind) {
    case 'read':
      return '▤';
    case 'edit':
      return '✎';
    case 'delete':
      return '✕';
    case 'move':
      return '⇄';
    case 'search':
      return '⌕';
    case 'execute':
      return '▶';
    case 'fetch':
      return '⇣';
    case 'other':
      return '⚙';
    default:
      return assertNever(kind, 'kindGlyph');
  }
}

/** A call kind's icon with an accessible label. */
export function KindIcon({ kind }: { kind: ToolCallKind }): ReactNode {
  return (
    <span className="ca-kind-icon" role="img" aria-label={kind} data-kind={kind}>
      {kindGlyph(kind)}
    </span>
  );
}
