import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Box } from '@crowdbox/boxes';
import type { CheckoutResponse, TaskProblem } from '@crowdbox/contracts';
import { CHECKOUT, renderWorkspace } from './render-workspace';

const BOX: Box = { label: 'car', center_x: 50, center_y: 50, width: 20, height: 20 };

function renderWithBoxes(initialBoxes: Box[] = []) {
  const onSkip = jest.fn<(checkout: CheckoutResponse, problem?: TaskProblem) => void>();
  renderWorkspace({ initialBoxes, onSkip });
  return { onSkip };
}

const openPanel = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Report a problem' }));
  return screen.findByRole('group', { name: 'Report a problem with this task' });
};

describe('Report a problem', () => {
  it('gives the task back with the reason chosen, through the Skip path', async () => {
    const { onSkip } = renderWithBoxes();
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
    const { onSkip } = renderWithBoxes([BOX, { ...BOX, center_x: 80 }]);
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
    const { onSkip } = renderWithBoxes();
    const panel = await openPanel();
    close(panel);
    await waitFor(() => expect(screen.queryByTestId('problem-report')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Report a problem' }));
    expect(onSkip).not.toHaveBeenCalled();
  });

  it('comes back with the reason chosen and the focus on it when the report fails, beside the error', async () => {
    const onSkip = jest.fn<(checkout: CheckoutResponse, problem?: TaskProblem) => void>();
    const { again } = renderWorkspace({ onSkip });
    await openPanel();
    fireEvent.click(screen.getByRole('radio', { name: 'The image is offensive or inappropriate' }));
    fireEvent.click(screen.getByRole('button', { name: 'Report and skip' }));
    expect(onSkip).toHaveBeenCalledWith(CHECKOUT, 'offensive_content');

    // While it is out the actions say so; then it fails.
    again({ busy: 'skip' });
    expect(screen.getByRole('button', { name: 'Skipping…' })).toBeTruthy();
    again({ busy: null, failure: { title: 'The task was not skipped', errors: [{ field: 'root', detail: 'the server could not be reached' }] } });

    const chosen = (await screen.findByRole('radio', { name: 'The image is offensive or inappropriate' })) as HTMLInputElement;
    expect(chosen.checked).toBe(true);
    expect(document.activeElement).toBe(chosen);
    expect(screen.getByText('the server could not be reached')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Report and skip' }));
    expect(onSkip).toHaveBeenCalledTimes(2);
  });
});
