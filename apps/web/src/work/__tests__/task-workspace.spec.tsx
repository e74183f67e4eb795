import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import type { CheckoutResponse } from '@crowdbox/contracts';
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

function renderWorkspace() {
  render(
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
    />,
  );
}

describe('the task panel on saving drafts', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('promises to keep the boxes on this device when it can', () => {
    renderWorkspace();
    expect(screen.getByText(/Your boxes are kept on this device until you submit\./)).toBeTruthy();
  });

  it('says the boxes are not being saved when this browser keeps nothing, instead of promising it', () => {
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota exceeded', 'QuotaExceededError');
    });
    renderWorkspace();
    expect(screen.queryByText(/kept on this device/)).toBeNull();
    expect(screen.getByText(/Your boxes are not being saved on this device/)).toBeTruthy();
  });
});
