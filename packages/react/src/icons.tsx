import type { ToolCallKind } from '@codeagent/render-intent';
import { assertNever } from '@codeagent/render-intent';
import type { ReactNode } from 'react';

/**
 * The strokes of each call kind's icon on a 16 x 16 grid. Drawn as inline SVG with `currentColor`, so no font
 * needs the glyph (text glyphs like U+25A4 are missing from many system fonts) and no image is requested.
 */
function kindPaths(kind: ToolCallKind): readonly string[] {
  switch (kind) {
    case 'read':
      // A page with lines of text.
      return ['M4 1.5h5.5L12.5 4.5V14.5H4Z', 'M9.5 1.5V4.5h3', 'M6 7.5h4.5', 'M6 10h4.5', 'M6 12.5h3'];
    case 'edit':
      // A pencil.
      return ['M10.5 2.5l3 3-8 8H2.5v-3Z', 'M9 4l3 3'];
    case 'delete':
      // A bin.
      return ['M2.5 4h11', 'M6 4V2.5h4V4', 'M4 4l.8 10h6.4L12 4', 'M6.8 6.5v5', 'M9.2 6.5v5'];
    case 'move':
      // Two opposite arrows.
      return ['M2.5 5.5h10', 'M10 3l2.5 2.5L10 8', 'M13.5 10.5h-10', 'M6 8l-2.5 2.5L6 13'];
    case 'search':
      // A magnifying glass.
      return ['M7 2.5a4.5 4.5 0 1 0 0 9a4.5 4.5 0 1 0 0-9Z', 'M10.3 10.3L14 14'];
    case 'execute':
      // A terminal prompt.
      return ['M2.5 3.5l4.5 4.5-4.5 4.5', 'M8.5 12.5h5'];
    case 'fetch':
      // A download arrow.
      return ['M8 2v8.5', 'M4.5 7L8 10.5 11.5 7', 'M2.5 13.5h11'];
    case 'other':
      // Sliders.
      return ['M2.5 4.5h11', 'M2.5 11.5h11', 'M5.5 3v3', 'M10.5 10v3'];
    default:
      return assertNever(kind, 'kindPaths');
  }
}

/** A call kind's icon (inline SVG in the text colour) with an accessible label. */
export function KindIcon({ kind }: { kind: ToolCallKind }): ReactNode {
  return (
    <span className="ca-kind-icon" role="img" aria-label={kind} data-kind={kind}>
      <svg
        viewBox="0 0 16 16"
        width="14"
        height="14"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        {kindPaths(kind).map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    </span>
  );
}
