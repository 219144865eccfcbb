/** The fallback rule every renderer suite checks. */
export const FALLBACK_RULE =
  'CONTRACTS §1 toolResultArtifact + toolResultValue fallback / seed 000 安全消费结果';

/** A v1 artifact of `kind` with `payload` (and overrides such as a title or status), as renderer inputs need. */
export const artifact = (kind: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
  schema: 'codeagent.tool-artifact',
  version: 1,
  kind,
  status: 'success',
  icon: null,
  title: null,
  payload,
  ...extra,
});

/** A tool result with `value`, carrying `art` as its artifact when given. */
export const result = (value: string, art?: unknown) =>
  art === undefined ? { value } : { value, extra: { codeagent: { artifact: art } } };
