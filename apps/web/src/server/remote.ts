import { isRecord as isRec } from '@codeagent/artifact-schema/internal';

/*
 * Answers given on this instance for a turn that runs on another one: stored (the running instance takes them through
 * NOTIFY), and the continuation is followed from the turn's live log (follow.ts).
 */

/** The approval answers a client-sent assistant message carries (untrusted): only a literal `true` approves. */
export function approvalAnswers(
  message: unknown,
): Array<{ approvalId: string; approved: boolean; reason: string | null }> {
  if (!isRec(message) || message.role !== 'assistant' || !Array.isArray(message.parts)) return [];
  const out: Array<{ approvalId: string; approved: boolean; reason: string | null }> = [];
  for (const part of message.parts.slice(0, 10_000)) {
    if (!isRec(part) || part.state !== 'approval-responded' || !isRec(part.approval)) continue;
    if (typeof part.approval.id !== 'string') continue;
    out.push({
      approvalId: part.approval.id,
      approved: part.approval.approved === true,
      reason: typeof part.approval.reason === 'string' ? part.approval.reason : null,
    });
  }
  return out;
}
