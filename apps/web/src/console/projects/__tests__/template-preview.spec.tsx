import { describe, expect, it } from '@jest/globals';
import { render } from '@testing-library/react';
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
});
