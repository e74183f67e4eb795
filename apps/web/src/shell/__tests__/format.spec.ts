import { describe, expect, it } from '@jest/globals';
import { formatCents, formatClock, formatDuration } from '../format';

describe('the wording of money and time, on every page', () => {
  it('writes cents as dollars with thousands grouped', () => {
    expect([0, 5, 25, 100, 123_456, 10_000_000].map(formatCents)).toEqual(['$0.00', '$0.05', '$0.25', '$1.00', '$1,234.56', '$100,000.00']);
  });

  it('writes a duration in hours, minutes and seconds, leaving out the zero parts', () => {
    expect([0, 45, 90, 600, 3_600, 5_400, 86_400, 3_725].map(formatDuration)).toEqual(['0 s', '45 s', '1 min 30 s', '10 min', '1 h', '1 h 30 min', '24 h', '1 h 2 min 5 s']);
  });

  it('writes a countdown as a clock', () => {
    expect([75, 3_725, 0.2].map(formatClock)).toEqual(['1:15', '1:02:05', '0:01']);
  });
});
