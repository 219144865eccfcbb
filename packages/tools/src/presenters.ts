import type { LockedToolName } from '@codeagent/permission-gate';
import {
  createBuiltinPresenters,
  displayPath,
  narrowBashResultMeta,
  type PresentResultInput,
  resolvePath,
  terminalFallbackText,
  type ToolCallView,
  type ToolPresentation,
  type ToolResultView,
} from '@codeagent/render-intent';
import { isRecord as isDict } from '@codeagent/artifact-schema/internal';

/**
 * Names of the built-in tools: the gate's locked names (written once, in permission-gate) but `use_skill` (skills')
 * and the reserved `WebFetch`.
 */
export type BuiltinToolName = Exclude<LockedToolName, 'use_skill' | 'WebFetch'>;

/** Options of {@link createBuiltinPresentations}. */
export interface BuiltinPresentationsOptions {
  /** The session cwd: titles show cwd-relative paths, locations and diffs absolute ones. */
  cwd?: string | undefined;
}

type Dict = Record<string, unknown>;
const str = (o: Dict, k: string): string | undefined => (typeof o[k] === 'string' ? o[k] : undefined);

/**
 * Pure presenters of every built-in tool, usable without a workspace (e.g. to replay a saved
 * session whose directory is gone). Read, Write, Edit, Bash and TodoWrite reuse the reference
 * presenters of `@codeagent/render-intent`; Glob, Grep and the job tools are added here.
 */
export function createBuiltinPresentations(
  options: BuiltinPresentationsOptions = {},
): Readonly<Record<BuiltinToolName, ToolPresentation>> {
  const cwd = options.cwd;
  const base = createBuiltinPresenters(cwd === undefined ? {} : { cwd });
  const abs = (p: string): string => resolvePath(p, cwd);
  const shown = (p: string): string => displayPath(p, cwd);

  const searchCall =
    (verb: string, slashes: boolean) =>
    (args: unknown): ToolCallView | undefined => {
      if (!isDict(args)) return undefined;
      const pattern = str(args, 'pattern');
      if (pattern === undefined) return undefined;
      const where = str(args, 'path');
      const what = slashes ? `/${pattern}/` : pattern;
      const inPath = where === undefined || where === '' ? '' : ` in ${shown(where)}`;
      return {
        card: 'generic',
        title: `${verb} ${what}${inPath}`,
        kind: 'search',
        rawInput: args,
        ...(where === undefined || where === '' ? {} : { locations: [{ path: abs(where) }] }),
      };
    };

  const searchResult =
    (noun: (args: unknown) => [singular: string, plural: string]) =>
    (args: unknown, result: PresentResultInput): ToolResultView | undefined => {
      if (result.isError || !isDict(result.meta)) return undefined;
      const { count, truncated } = result.meta;
      if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return undefined;
      const [one, many] = noun(args);
      // Title only: the resolver shows the model-facing list as the card body.
      return {
        card: 'generic',
        title: `${count}${truncated === true ? '+' : ''} ${count === 1 ? one : many}`,
      };
    };

  const jobCall =
    (verb: string) =>
    (args: unknown): ToolCallView | undefined => {
      if (!isDict(args)) return undefined;
      const id = str(args, 'job_id');
      return id === undefined
        ? undefined
        : { card: 'generic', title: `${verb} ${id}`, kind: 'execute', rawInput: args };
    };

  return Object.freeze({
    Read: base.Read,
    Write: base.Write,
    Edit: base.Edit,
    Glob: { presentCall: searchCall('Glob', false), presentResult: searchResult(() => ['file', 'files']) },
    Grep: {
      presentCall: searchCall('Grep', true),
      presentResult: searchResult((args) => {
        const mode = isDict(args) ? args.output_mode : undefined;
        return mode === 'files_with_matches' || mode === 'count' ? ['file', 'files'] : ['match', 'matches'];
      }),
    },
    Bash: base.Bash,
    TodoWrite: base.TodoWrite,
    job_output: {
      presentCall: jobCall('Output of'),
      presentResult: (_args: unknown, result: PresentResultInput): ToolResultView => {
        const output = narrowBashResultMeta(result.meta).output ?? result.value;
        return { card: 'generic', content: [{ type: 'text', text: terminalFallbackText(output) }] };
      },
    },
    job_kill: { presentCall: jobCall('Stop') },
  });
}
