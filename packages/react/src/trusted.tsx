import { isTrustedHtml, type TrustedHtml } from '@codeagent/artifact-schema/safety';
import type { ReactNode } from 'react';

/** Props of {@link TrustedHtmlView}. */
export interface TrustedHtmlViewProps {
  /** HTML branded by `trustedHtml()` in the host's own code. Anything else is shown as text, never as HTML. */
  html: TrustedHtml | unknown;
  /** Extra class on the wrapper. */
  className?: string | undefined;
}

/**
 * Inserts HTML only when it carries the `trustedHtml` brand (the one place this package uses
 * `dangerouslySetInnerHTML`); an unbranded value, such as JSON that looks like `{html: "..."}`, is shown as text.
 */
export function TrustedHtmlView({ html, className }: TrustedHtmlViewProps): ReactNode {
  const cls = className === undefined ? 'ca-trusted-html' : `ca-trusted-html ${className}`;
  if (isTrustedHtml(html)) {
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the value carries the unforgeable trustedHtml brand
    return <div className={cls} dangerouslySetInnerHTML={{ __html: html.html }} />;
  }
  return <div className={cls}>{typeof html === 'string' ? html : ''}</div>;
}
