import { beforeAll, describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { CHECKOUT } from './render-workspace';

// react-router needs TextEncoder, which jsdom lacks: the card and the router are imported once it is there.
let load: () => Promise<[typeof import('react-router'), typeof import('../in-progress-card')]>;
beforeAll(() => {
  Object.assign(globalThis, { TextEncoder });
  load = () => Promise.all([import('react-router'), import('../in-progress-card')]);
});

describe('the work list’s In progress card', () => {
  it('says until when the task is reserved with its date and zone: a long lease ends on another day', async () => {
    const [{ MemoryRouter }, { InProgressCard }] = await load();
    // A project may allow 24 h: a time of day alone read as earlier today, already past.
    const expiresAt = '2026-11-27T09:00:00.000Z';
    render(
      <MemoryRouter>
        <InProgressCard checkout={{ ...CHECKOUT, expires_at: expiresAt }} userId="u1" onGone={() => undefined} />
      </MemoryRouter>,
    );
    const time = screen.getByText(/Reserved for you until/).querySelector('time');
    expect(time?.getAttribute('dateTime')).toBe(expiresAt);
    expect(time?.textContent).toMatch(/27 Nov 2026, \d\d:\d\d:00 \S+/);
  });
});
