import type { ToolCallView } from '@codeagent/render-intent';
import { type ReactNode, useState } from 'react';
import { ToolCallCard } from './cards.js';
import { VisibleText } from './visible.js';

/** The three answers to an approval; they map onto ACP's `allow_once`, `allow_always` and `reject_once`. */
export type ApprovalDecision = 'allow_once' | 'allow_always' | 'deny';

/** Props of {@link ApprovalPrompt}. */
export interface ApprovalPromptProps {
  /** The call being approved: exactly the card that will run. */
  view: ToolCallView;
  /** The tool's name; untrusted. */
  toolName: string;
  /** Called once with the user's answer; the buttons are disabled afterwards. */
  onDecision: (decision: ApprovalDecision) => void;
  /** The model's stated reason (`intent`), shown as untrusted text. */
  intent?: string | null | undefined;
  /** Hide "Allow always" (for hosts without session grants). */
  allowAlways?: boolean | undefined;
}

/**
 * Asks the user to approve a tool call. It shows the card being approved with every untrusted string revealed:
 * no escape sequence is interpreted, invisible and bidi characters are marked, long commands wrap and
 * whitespace runs are visible, so what the user approves is exactly what runs.
 */
export function ApprovalPrompt({
  view,
  toolName,
  onDecision,
  intent,
  allowAlways = true,
}: ApprovalPromptProps): ReactNode {
  const [decided, setDecided] = useState<ApprovalDecision | null>(null);
  const decide = (decision: ApprovalDecision): void => {
    if (decided !== null) return;
    setDecided(decision);
    onDecision(decision);
  };
  return (
    <div className="ca-approval" role="dialog" aria-modal="false" aria-label="Approve tool call">
      <p className="ca-approval-question">
        Allow{' '}
        <strong className="ca-approval-tool">
          <VisibleText text={toolName} />
        </strong>{' '}
        to run?
      </p>
      {intent === undefined || intent === null || intent === '' ? null : (
        <p className="ca-approval-intent">
          Reason given by the model: <VisibleText text={intent} />
        </p>
      )}
      <ToolCallCard view={view} status="pending" reveal />
      <div className="ca-approval-actions">
        <button
          type="button"
          className="ca-button ca-button-allow"
          disabled={decided !== null}
          onClick={() => decide('allow_once')}
        >
          Allow once
        </button>
        {allowAlways ? (
          <button
            type="button"
            className="ca-button"
            disabled={decided !== null}
            onClick={() => decide('allow_always')}
          >
            Allow always
          </button>
        ) : null}
        <button
          type="button"
          className="ca-button ca-button-deny"
          disabled={decided !== null}
          onClick={() => decide('deny')}
        >
          Deny
        </button>
      </div>
    </div>
  );
}
