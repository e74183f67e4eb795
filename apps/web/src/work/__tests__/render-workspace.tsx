import { render, type RenderResult } from '@testing-library/react';
import type { CheckoutResponse } from '@crowdbox/contracts';
import { TaskWorkspace, type TaskWorkspaceProps } from '../task-workspace';

// A task without an image: the panel renders without the Konva editor, which these tests do not need.
export const CHECKOUT: CheckoutResponse = {
  checkout_id: 'c1',
  task_uuid: 't1',
  project_uuid: 'p1',
  prompt: '<p>Box the cars.</p>',
  external_image_url: null,
  labels: [{ name: 'car', color: '#e4572e' }],
  reward: 25,
  checked_out_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 600_000).toISOString(),
};

/** The task panel of CHECKOUT, idle, with no draft and callbacks that do nothing unless given; `again` renders it with other props. */
export function renderWorkspace(props: Partial<TaskWorkspaceProps> = {}): { again: (changed: Partial<TaskWorkspaceProps>) => void } {
  const element = (p: Partial<TaskWorkspaceProps>) => (
    <TaskWorkspace
      checkout={CHECKOUT}
      initialBoxes={[]}
      initialImage={undefined}
      resumed={false}
      notice={null}
      busy={null}
      failure={null}
      onSubmit={() => undefined}
      onSkip={() => undefined}
      onExpired={() => undefined}
      onDraft={() => true}
      watchOtherTabs={() => () => undefined}
      {...p}
    />
  );
  const result: RenderResult = render(element(props));
  return { again: (changed) => result.rerender(element({ ...props, ...changed })) };
}
