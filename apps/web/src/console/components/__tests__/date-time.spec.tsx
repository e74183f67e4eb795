import { describe, expect, it } from '@jest/globals';
import { render } from '@testing-library/react';
import { DateTime } from '../date-time';

describe('DateTime', () => {
  it('names the time zone, and keeps the exact ISO value in the <time> element', () => {
    const iso = '2025-06-01T23:30:05.000Z';
    const { container } = render(<DateTime iso={iso} />);
    const time = container.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe(iso);
    expect(time?.getAttribute('title')).toBe(iso);
    // The zone as this browser names it ("UTC", "CEST", "GMT-4"): near midnight the day itself depends on it.
    const zone = new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' }).formatToParts(new Date(iso)).find((p) => p.type === 'timeZoneName')?.value;
    expect(zone).toBeTruthy();
    expect(time?.textContent?.endsWith(` ${zone}`)).toBe(true);
  });

  it('shows a dash when there is no time', () => {
    const { container } = render(<DateTime iso={null} />);
    expect(container.textContent).toBe('—');
    expect(container.querySelector('time')).toBeNull();
  });
});
