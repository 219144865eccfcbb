import type { PendingApproval } from '@codeagent/adapter-ai-sdk-ui';
import type { PendingStep } from '@codeagent/agent-core';
import type { JsonValue, SessionRecord } from '@codeagent/session-store';

/*
 * A turn parked on approvals, in storage (ADR 0210). When the running turn parks, the host appends one entry
 * `{parked: <client.pendingStep()>}` to the turn's steps (no `messages`, so `appendTurnSteps` skips it) next to the
 * stored approvals. A turn whose last entry is such a step, whose every waiting call has its approval stored (none
 * taken by the instance that ran it) and shown waiting in the UI history, with the same input everywhere, can be
 * continued by another instance; anything else is a turn that was running, shown interrupted.
 */

type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The step entry a host appends when its turn parks. */
export function parkedEntry(step: PendingStep): JsonValue {
  return { parked: JSON.parse(JSON.stringify(step)) as JsonValue };
}

/** What a stored parked turn needs to be continued here. */
export interface StoredParkedTurn {
  readonly turnId: string;
  /** The owner that ran it (gone); a claim names it, so a turn another instance took is not taken twice. */
  readonly owner: string | null;
  readonly step: PendingStep;
  readonly approvals: readonly PendingApproval[];
}

/** Arguments without the display-only `_intent`. */
function withoutIntent(value: unknown): unknown {
  if (!isRec(value) || !('_intent' in value)) return value;
  const { _intent: _, ...rest } = value;
  return rest;
}

/** A canonical JSON text (keys sorted) to compare inputs; `null` for anything JSON cannot hold or nested too deep. */
function canonical(value: unknown, depth = 0): string | null {
  if (depth > 256) return null;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (Array.isArray(value)) {
    const items = value.map((v) => canonical(v, depth + 1));
    return items.includes(null) ? null : `[${items.join(',')}]`;
  }
  if (!isRec(value)) return null;
  const entries: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const c = canonical(value[key], depth + 1);
    if (c === null) return null;
    entries.push(`${JSON.stringify(key)}:${c}`);
  }
  return `{${entries.join(',')}}`;
}

const sameInput = (a: unknown, b: unknown): boolean => {
  const x = canonical(withoutIntent(a));
  return x !== null && x === canonical(withoutIntent(b));
};

/** The parked turn of `record` that can be continued, or `null` (no running turn, not parked, inconsistent). */
export function storedParkedTurn(record: SessionRecord): StoredParkedTurn | null {
  const turn = record.turn;
  if (turn?.state !== 'running') return null;
  const entry = turn.steps.at(-1);
  if (!isRec(entry) || !isRec(entry.parked)) return null;
  const step = entry.parked as unknown as PendingStep;
  if (!Array.isArray(step.calls) || !Array.isArray(step.results)) return null;
  const finished = new Set(step.results.map((r) => (isRec(r) ? r.id : undefined)));
  const waiting = step.calls.filter((c) => isRec(c) && !finished.has(c.id));
  if (waiting.length === 0 || record.pending.length !== waiting.length) return null;
  const ui = Array.isArray(record.ui) ? record.ui : [];
  const last = ui.at(-1);
  const parts = isRec(last) && last.role === 'assistant' && Array.isArray(last.parts) ? last.parts : [];
  const approvals: PendingApproval[] = [];
  for (const call of waiting) {
    const stored = record.pending.filter((p) => p.toolCallId === call.id);
    const approval = stored[0];
    // One approval per waiting call, with the very input of the stored call (nothing taken, nothing altered)...
    if (stored.length !== 1 || !approval || approval.toolName !== call.name) return null;
    if (!sameInput(approval.input, call.arguments)) return null;
    // ...shown waiting in the UI history with that same input.
    const part = parts.find((p) => isRec(p) && p.type === 'dynamic-tool' && p.toolCallId === call.id);
    if (!isRec(part) || part.state !== 'approval-requested' || !isRec(part.approval)) return null;
    if (part.approval.id !== approval.approvalId || !sameInput(part.input, call.arguments)) return null;
    approvals.push({
      approvalId: approval.approvalId,
      toolCallId: call.id,
      toolName: call.name,
      input: withoutIntent(approval.input),
    });
  }
  return { turnId: turn.id, owner: turn.owner, step, approvals };
}
