import { describe, expect, it } from '@jest/globals';
import { spokenTimeLeft } from '../countdown';

describe('spokenTimeLeft', () => {
  it('says whole minutes (or hours and minutes) above 5 minutes, rounded down', () => {
    expect(spokenTimeLeft(598)).toBe('9 minutes');
    expect(spokenTimeLeft(361)).toBe('6 minutes');
    expect(spokenTimeLeft(301)).toBe('5 minutes');
    expect(spokenTimeLeft(3600)).toBe('1 hour');
    expect(spokenTimeLeft(3 * 3600 + 61)).toBe('3 hours 1 minute');
  });

  it('says steps of 15 s in the last 5 minutes, so its text changes only every 15 s', () => {
    expect(spokenTimeLeft(300)).toBe('5 minutes');
    expect(spokenTimeLeft(299.5)).toBe('4 minutes 45 seconds');
    expect(spokenTimeLeft(285)).toBe('4 minutes 45 seconds');
    expect(spokenTimeLeft(284.9)).toBe('4 minutes 30 seconds');
    expect(spokenTimeLeft(60)).toBe('1 minute');
    expect(spokenTimeLeft(59)).toBe('45 seconds');
    expect(spokenTimeLeft(14)).toBe('less than 15 seconds');
    expect(spokenTimeLeft(-3)).toBe('less than 15 seconds');
  });
});
