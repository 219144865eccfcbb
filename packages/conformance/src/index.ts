/**
 * The codeagent contract conformance kit: language-neutral vectors with provenance, a runner for implementations in
 * this process (vitest, node:test) and one for hosts in any language speaking NDJSON over stdio, with an
 * expected-failures baseline that fails when an expected failure starts passing, and text, JSON and JUnit reports.
 *
 * @packageDocumentation
 */
export { parseBaseline, readBaseline } from './baseline.js';
export { jsonDifference } from './compare.js';
export { type HostOptions, type NdjsonHost, PROTOCOL, startHost } from './host.js';
export { formatReport, junitReport } from './report.js';
export {
  type Answer,
  type ConformanceReport,
  type Implementation,
  inProcess,
  judge,
  type Outcome,
  type RunOptions,
  runSuite,
  type VectorResult,
} from './run.js';
export {
  ARTIFACT_OPS,
  PERMISSION_OPS,
  permissionSuite,
  SKILLS_OPS,
  skillsSuite,
  STOP_REASON_OPS,
  stopReasonSuite,
  artifactSuite,
  type ExpectedError,
  type SuiteName,
  suites,
  type TextExpectation,
  type Vector,
} from './vectors.js';
export {
  ACP_MAPPING_OPS,
  acpMappingSuite,
  GRANT_OPS,
  grantsSuite,
  RENDER_INTENT_OPS,
  renderIntentSuite,
  TERMINAL_VIEW_OP,
  terminalViewsSuite,
} from './view-vectors.js';
export {
  type Behaviour,
  type GrantOutcome,
  type GrantStep,
  grantSessionOp,
  presentSessionOp,
  type SchemaSpec,
  type SessionOutcome,
  type SessionStep,
  type ToolSpec,
} from './ops.js';
export {
  type RendererCase,
  RENDER_TERMINAL_OP,
  runTerminalRendererSuite,
  type TerminalRender,
  terminalRendererCases,
} from './terminal.js';
export {
  type Backend,
  type BackendEvent,
  type BackendExpectation,
  type BackendFactory,
  type BackendLimits,
  type BackendScenario,
  type BackendSetup,
  type BackendTool,
  type BackendToolSpec,
  backendScenarios,
  runBackendSuite,
  TOOL_REQUEST_KEYS,
  TOOL_RESULT_KEYS,
} from './backend.js';
export { runStopReasonSuite, type StopFactsVector } from './stop-reasons.js';
export { type BrowserCase, browserRendererCases, RENDER_HOOK, runBrowserRendererSuite } from './browser.js';
