import { type ReactNode, useId, useState } from 'react';
import type { DiffHunk, DiffLine } from './diff-model.js';
import { inlineText, plainText } from './text.js';

/** How a diff is laid out. */
export type DiffMode = 'unified' | 'split';

/** Props of {@link DiffView}. */
export interface DiffViewProps {
  /** The file the diff belongs to (shown); untrusted. */
  path?: string | undefined;
  /** The hunks to draw. */
  hunks: readonly DiffHunk[];
  /** Marks a new file. */
  isNew?: boolean | undefined;
  /** Initial layout (default `unified`); the user can switch. */
  mode?: DiffMode | undefined;
}

const num = (n: number | null): string => (n === null ? '' : String(n));
const MARK: Readonly<Record<DiffLine['type'], string>> = { add: '+', del: '-', ctx: ' ' };

function UnifiedRows({ hunk }: { hunk: DiffHunk }): ReactNode {
  return hunk.lines.map((line, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: diff lines have no identity beyond their position
    <tr key={i} className={`ca-diff-line ca-diff-${line.type}`}>
      <td className="ca-diff-no">{num(line.oldNo)}</td>
      <td className="ca-diff-no">{num(line.newNo)}</td>
      <td className="ca-diff-mark">{MARK[line.type]}</td>
      <td className="ca-diff-text">{plainText(line.text)}</td>
    </tr>
  ));
}

/** Pairs each run of deleted lines with the added lines that follow it, for side-by-side rows. */
function splitPairs(lines: readonly DiffLine[]): Array<[DiffLine | null, DiffLine | null]> {
  const rows: Array<[DiffLine | null, DiffLine | null]> = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as DiffLine;
    if (line.type === 'ctx') {
      rows.push([line, line]);
      i++;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (i < lines.length && (lines[i] as DiffLine).type === 'del') dels.push(lines[i++] as DiffLine);
    while (i < lines.length && (lines[i] as DiffLine).type === 'add') adds.push(lines[i++] as DiffLine);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++)
      rows.push([dels[k] ?? null, adds[k] ?? null]);
  }
  return rows;
}

function Side({ line, side }: { line: DiffLine | null; side: 'old' | 'new' }): ReactNode {
  if (line === null) {
    return (
      <>
        <td className="ca-diff-no ca-diff-empty" />
        <td className="ca-diff-text ca-diff-empty" />
      </>
    );
  }
  const cls = line.type === 'ctx' ? 'ca-diff-ctx' : `ca-diff-${line.type}`;
  return (
    <>
      <td className={`ca-diff-no ${cls}`}>{num(side === 'old' ? line.oldNo : line.newNo)}</td>
      <td className={`ca-diff-text ${cls}`}>{plainText(line.text)}</td>
    </>
  );
}

function SplitRows({ hunk }: { hunk: DiffHunk }): ReactNode {
  return splitPairs(hunk.lines).map(([left, right], i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: diff rows have no identity beyond their position
    <tr key={i} className="ca-diff-line">
      <Side line={left} side="old" />
      <Side line={right} side="new" />
    </tr>
  ));
}

function stats(hunks: readonly DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks)
    for (const line of hunk.lines) {
      if (line.type === 'add') added++;
      else if (line.type === 'del') removed++;
    }
  return { added, removed };
}

/** Most diff lines drawn; a longer diff ends with a note (the counts in the header stay exact). */
export const MAX_DIFF_LINES = 5000;

function capped(hunks: readonly DiffHunk[]): { hunks: DiffHunk[]; hidden: number } {
  const out: DiffHunk[] = [];
  let budget = MAX_DIFF_LINES;
  let hidden = 0;
  for (const hunk of hunks) {
    if (budget <= 0) hidden += hunk.lines.length;
    else if (hunk.lines.length <= budget) {
      out.push(hunk);
      budget -= hunk.lines.length;
    } else {
      out.push({ header: hunk.header, lines: hunk.lines.slice(0, budget) });
      hidden += hunk.lines.length - budget;
      budget = 0;
    }
  }
  return { hunks: out, hidden };
}

/** The widest line number of each side (0 when that side shows none). */
function widest(hunks: readonly DiffHunk[]): { old: number; new: number } {
  let oldMax = 0;
  let newMax = 0;
  for (const hunk of hunks)
    for (const line of hunk.lines) {
      if (line.oldNo !== null && line.oldNo > oldMax) oldMax = line.oldNo;
      if (line.newNo !== null && line.newNo > newMax) newMax = line.newNo;
    }
  return { old: oldMax, new: newMax };
}

/** A number column just wide enough for its largest number (empty when it has none). */
const numberColumn = (max: number) => ({
  width: max === 0 ? '6px' : `calc(${String(max).length}ch + 12px)`,
});

/** A line diff with real line numbers, in unified or split (side-by-side) layout. */
export function DiffView({ path, hunks: allHunks, isNew, mode = 'unified' }: DiffViewProps): ReactNode {
  const [layout, setLayout] = useState<DiffMode>(mode);
  const id = useId();
  const { added, removed } = stats(allHunks);
  const { hunks, hidden } = capped(allHunks);
  const numbers = widest(hunks);
  return (
    <div className="ca-diff" data-layout={layout}>
      <div className="ca-diff-header">
        {path === undefined ? null : <span className="ca-diff-path">{inlineText(path)}</span>}
        {isNew === true ? <span className="ca-diff-new">new file</span> : null}
        <span className="ca-diff-added">+{added}</span>
        <span className="ca-diff-removed">-{removed}</span>
        <span className="ca-diff-modes">
          <button
            type="button"
            aria-pressed={layout === 'unified'}
            aria-controls={id}
            onClick={() => setLayout('unified')}
          >
            Unified
          </button>
          <button
            type="button"
            aria-pressed={layout === 'split'}
            aria-controls={id}
            onClick={() => setLayout('split')}
          >
            Split
          </button>
        </span>
      </div>
      {hunks.length === 0 ? (
        <p className="ca-diff-none">No changes</p>
      ) : (
        <table className="ca-diff-table" id={id}>
          {layout === 'unified' ? (
            <colgroup>
              <col className="ca-diff-col-no" style={numberColumn(numbers.old)} />
              <col className="ca-diff-col-no" style={numberColumn(numbers.new)} />
              <col className="ca-diff-col-mark" />
              <col />
            </colgroup>
          ) : (
            <colgroup>
              <col className="ca-diff-col-no" style={numberColumn(numbers.old)} />
              <col />
              <col className="ca-diff-col-no" style={numberColumn(numbers.new)} />
              <col />
            </colgroup>
          )}
          {hunks.map((hunk, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: hunks have no identity beyond their position
            <tbody key={i}>
              {hunk.header === '' ? null : (
                <tr className="ca-diff-hunk">
                  <td colSpan={4}>{hunk.header}</td>
                </tr>
              )}
              {layout === 'unified' ? <UnifiedRows hunk={hunk} /> : <SplitRows hunk={hunk} />}
            </tbody>
          ))}
        </table>
      )}
      {hidden === 0 ? null : <p className="ca-diff-none">{hidden} more lines not shown</p>}
    </div>
  );
}
