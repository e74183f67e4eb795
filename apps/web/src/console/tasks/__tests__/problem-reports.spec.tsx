import { TASK_PROBLEMS } from '@crowdbox/contracts';
import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import { ProblemReports } from '../problem-reports';
import { PROBLEM_TEXT } from '../../../shell/problem-text';

describe('ProblemReports', () => {
  it('words each reason plainly, with its count and its last time in a <time>, in the order the API gave', () => {
    render(
      <ProblemReports
        problems={[
          { problem: 'image_broken', count: 2, last_reported_at: '2026-01-02T10:00:00.000Z' },
          { problem: 'other', count: 1, last_reported_at: '2026-01-01T09:00:00.000Z' },
        ]}
      />,
    );
    const section = screen.getByRole('region', { name: 'Problems reported by workers' });
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0].textContent)).toEqual(['The image does not load or is broken', 'Something else is wrong']);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1].textContent)).toEqual(['2', '1']);
    expect(rows[0].querySelector('time')?.getAttribute('datetime')).toBe('2026-01-02T10:00:00.000Z');
  });

  it('says None when no worker reported a problem', () => {
    render(<ProblemReports problems={[]} />);
    const section = screen.getByRole('region', { name: 'Problems reported by workers' });
    expect(section.textContent).toBe('Problems reported by workersNone.');
    expect(within(section).queryByRole('table')).toBeNull();
  });

  it('has its own words for every reason a worker can give', () => {
    const words = TASK_PROBLEMS.map((problem) => PROBLEM_TEXT[problem]);
    expect(words.every((w) => w.length > 0)).toBe(true);
    expect(new Set(words).size).toBe(TASK_PROBLEMS.length);
  });
});
