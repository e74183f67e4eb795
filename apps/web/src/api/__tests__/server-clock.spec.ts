import { afterEach, describe, expect, it } from '@jest/globals';
import { noteServerTime, resetServerClock, serverClockOffset } from '../server-clock';

afterEach(() => resetServerClock());

describe('the server clock', () => {
  it('takes a millisecond reading at the latest moment it can be true: the request just left', () => {
    // Server 1.9 s ahead; the request left at 10,000 and came back at 10,100, read on the server at 10,050.
    noteServerTime(11_950, 10_000, 10_100);
    expect(serverClockOffset()).toBe(1_950);
  });

  it('reads a whole-second Date header as up to a second later than it says', () => {
    // Server time 11,950 is sent as 11,000.
    noteServerTime(11_000, 10_000, 10_100, 1000);
    expect(serverClockOffset()).toBe(2_000);
    // Later headers narrow the range from below (server time 12,650 sent as 12,000), a precise reading from above.
    noteServerTime(12_000, 10_700, 10_720, 1000);
    expect(serverClockOffset()).toBe(2_000);
    noteServerTime(12_000, 10_990, 11_000, 1000);
    expect(serverClockOffset()).toBe(2_000);
    noteServerTime(11_950, 10_000, 10_100);
    expect(serverClockOffset()).toBe(1_950);
  });

  it('starts over when a reading does not fit the earlier ones (a clock was set)', () => {
    noteServerTime(11_950, 10_000, 10_100);
    // The browser clock went back 5 s.
    noteServerTime(12_000, 5_000, 5_100);
    expect(serverClockOffset()).toBe(7_000);
  });

  it('ignores a reply without a date, and is 0 before any reply', () => {
    expect(serverClockOffset()).toBe(0);
    noteServerTime(Number.NaN, 10_000, 10_100, 1000);
    expect(serverClockOffset()).toBe(0);
  });
});
