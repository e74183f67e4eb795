import { describe, expect, it } from '@jest/globals';
import { render } from '@testing-library/react';
import { formatCents, formatDuration } from '../../../shell/format';
import { TemplatePreview } from '../template-preview';

describe('TemplatePreview', () => {
  it('is no live region: it changes at every keystroke, and a screen reader would read it all out each time', () => {
    const { container, rerender } = render(
      <TemplatePreview template="<p>Box every [[object]]</p>" values={{ object: 'car' }} displayName="Cars" description="" labels={[]} rewardCents={5} seconds={300} />,
    );
    rerender(<TemplatePreview template="<p>Box every [[object]]!</p>" values={{ object: 'car' }} displayName="Cars" description="" labels={[]} rewardCents={5} seconds={300} />);
    expect(container.querySelector('[data-testid="template-preview"]')?.textContent).toBe('Box every car!');
    expect(container.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]')).toHaveLength(0);
  });

  it('words the reward and the time as the worker’s pages do', () => {
    const { container } = render(
      <TemplatePreview template="<p>Box</p>" values={{}} displayName="Cars" description="" labels={[]} rewardCents={123_456} seconds={5_400} />,
    );
    // The worker's project list shows formatCents and formatDuration of the same figures.
    expect(container.textContent).toContain(`${formatCents(123_456)} per task · ${formatDuration(5_400)} to finish`);
    expect(container.textContent).toContain('$1,234.56 per task · 1 h 30 min to finish');
  });
});
