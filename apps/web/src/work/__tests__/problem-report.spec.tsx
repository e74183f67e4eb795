import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Box } from '@crowdbox/boxes';
import type { CheckoutResponse, TaskProblem } from '@crowdbox/contracts';
import { TaskWorkspace } from '../task-workspace';

// A task without an image: the panel renders without the Konva editor, which this test does not need.
const CHECKOUT: CheckoutResponse = {
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

const BOX: Box = { label: 'car', center_x: 50, center_y: 50, width: 20, height: 20 };

function renderWorkspace(initialBoxes: Box[] = []) {
  const onSkip = jest.fn<(checkout: CheckoutResponse, problem?: TaskProblem) => void>();
  render(
    <TaskWorkspace
      checkout={CHECKOUT}
      initialBoxes={initialBoxes}
      initialImage={undefined}
      resumed={false}
      notice={null}
      busy={null}
      failure={null}
      onSubmit={() => undefined}
      onSkip={onSkip}
      onExpired={() => undefined}
      onDraft={() => true}
      watchOtherTabs={() => () => undefined}
    />,
  );
  return { onSkip };
}

const openPanel = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Report a problem' }));
  return screen.findByRole('group', { name: 'Report a problem with this task' });
};

describe('Report a problem', () => {
  it('gives the task back with the reason chosen, through the Skip path', async () => {
    const { onSkip } = renderWorkspace();
    await openPanel();
    // The focus moves into the panel, on the first reason; nothing is chosen yet, so nothing can be sent.
    const first = screen.getByRole('radio', { name: 'The image does not load or is broken' });
    expect(document.activeElement).toBe(first);
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).checked)).toEqual([false, false, false, false]);
    const send = screen.getByRole('button', { name: 'Report and skip' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText(/will be thrown away/)).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'The instructions are unclear' }));
    expect((send as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(send);
    expect(onSkip).toHaveBeenCalledTimes(1);
    expect(onSkip).toHaveBeenCalledWith(CHECKOUT, 'unclear_instructions');
  });

  it('says that drawn boxes will be thrown away, instead of asking a second time', async () => {
    const { onSkip } = renderWorkspace([BOX, { ...BOX, center_x: 80 }]);
    await openPanel();
    expect(screen.getByText('Your 2 boxes will be thrown away.')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Something else is wrong' }));
    fireEvent.click(screen.getByRole('button', { name: 'Report and skip' }));
    expect(screen.queryByTestId('skip-confirm')).toBeNull();
    expect(onSkip).toHaveBeenCalledWith(CHECKOUT, 'other');
  });

  it.each([
    ['Escape', (panel: HTMLElement) => fireEvent.keyDown(panel.querySelector('input') as HTMLElement, { key: 'Escape' })],
    ['Cancel', () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))],
  ])('closes on %s without sending, and puts the focus back on Report a problem', async (_, close) => {
    const { onSkip } = renderWorkspace();
    const panel = await openPanel();
    close(panel);
    await waitFor(() => expect(screen.queryByTestId('problem-report')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Report a problem' }));
    expect(onSkip).not.toHaveBeenCalled();
  });
});
