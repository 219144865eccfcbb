import type { ToolCallView, ToolResultView } from './types.js';

/** One golden call/result pair shipped in `@codeagent/render-intent/fixtures`. */
export interface PresenterFixture {
  /** Stable case id. */
  id: string;
  /** The rule the case pins, in words. */
  source: string;
  /** The session cwd the presenters were created with. */
  cwd: string;
  /** Tool name as the model called it. */
  tool: string;
  /** Tool args as the model sent them. */
  args: unknown;
  /** The model-facing result and its persisted presentation meta. */
  result: {
    /** Model-facing content: text or content blocks. */
    content: unknown;
    /** Whether the tool reported an error. */
    isError: boolean;
    /** Persisted presentation meta. */
    meta?: unknown;
  };
  /** The views the reference presenters must produce. */
  expected: {
    /** The expected call view. */
    call: ToolCallView;
    /** The expected result view. */
    result: ToolResultView;
  };
}

/** The shape of the `@codeagent/render-intent/fixtures` JSON file. */
export interface PresenterFixtureFile {
  /** What the file is. */
  $comment: string;
  /** Format version of the file. */
  version: 1;
  /** The cases, in a stable order. */
  cases: PresenterFixture[];
}
