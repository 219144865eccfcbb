import { toolResultArtifact, toolResultValue } from '@codeagent/artifact-schema';
import { formatReport, inProcess, runSuite } from '@codeagent/conformance';

/** Runs the artifact suite against two accessors in this process; throws with the report when they do not conform. */
export async function checkAccessors(): Promise<string> {
  const implementation = inProcess('my accessors', { toolResultArtifact, toolResultValue });
  const report = await runSuite(implementation, { suite: 'artifact' });
  if (!report.ok) throw new Error(formatReport(report));
  return formatReport(report);
}
