import type { ToolCallView, ToolResultView as ResultIntent } from '@codeagent/render-intent';
import type { ReactNode } from 'react';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ApprovalDecision,
  ApprovalPromptProps,
  ArtifactRenderer,
  ArtifactRendererProps,
  RendererRegistry,
  ToolCallCardProps,
  ToolCallStatus,
  ToolResultViewProps,
} from '../src/index.ts';
import { createRendererRegistry, parseSgr } from '../src/index.ts';

const Renderer = (_props: ArtifactRendererProps): ReactNode => null;

describe('public types', () => {
  it('closes the status and decision unions', () => {
    expectTypeOf<ToolCallStatus>().toEqualTypeOf<'pending' | 'running' | 'done' | 'failed' | 'denied'>();
    expectTypeOf<ApprovalDecision>().toEqualTypeOf<'allow_once' | 'allow_always' | 'deny'>();
    // @ts-expect-error an unknown status is not a ToolCallStatus
    const bad: ToolCallStatus = 'cancelled';
    void bad;
  });

  it('types the card and prompt props with the render-intent unions', () => {
    expectTypeOf<ToolCallCardProps['view']>().toEqualTypeOf<ToolCallView>();
    expectTypeOf<ToolCallCardProps['result']>().toEqualTypeOf<ResultIntent | undefined>();
    expectTypeOf<ApprovalPromptProps['onDecision']>().toEqualTypeOf<(decision: ApprovalDecision) => void>();
    expectTypeOf<ToolResultViewProps['result']>().toBeUnknown();
  });

  it('lets any component of the renderer props be a renderer', () => {
    expectTypeOf(Renderer).toExtend<ArtifactRenderer>();
    expectTypeOf(createRendererRegistry({ chart: Renderer })).toEqualTypeOf<RendererRegistry>();
    // @ts-expect-error a renderer must accept the renderer props
    createRendererRegistry({ chart: (props: { other: number }) => props.other });
    expectTypeOf(parseSgr('x')).toEqualTypeOf<Array<{ text: string; className: string }>>();
  });
});
