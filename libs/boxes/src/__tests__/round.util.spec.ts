import { roundBox, roundHalfAwayFromZero } from '../round.util';

describe('roundHalfAwayFromZero', () => {
  it('sends exact halves away from zero on both sides', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, -2.5].map(roundHalfAwayFromZero)).toEqual([1, 2, 3, -1, -2, -3]);
  });

  it('rounds non-halves to the nearest integer', () => {
    expect([1.49, 1.51, -1.49, -1.51, 3, 0].map(roundHalfAwayFromZero)).toEqual([1, 2, -1, -2, 3, 0]);
  });

  it('never returns -0', () => {
    expect(Object.is(roundHalfAwayFromZero(-0.2), 0)).toBe(true);
    expect(Object.is(roundHalfAwayFromZero(-0), 0)).toBe(true);
  });

  it('passes non-finite values through for validation to report', () => {
    expect(roundHalfAwayFromZero(Number.NaN)).toBeNaN();
    expect(roundHalfAwayFromZero(Infinity)).toBe(Infinity);
  });
});

describe('roundBox', () => {
  it('rounds center and size independently and keeps the field order', () => {
    const out = roundBox({ label: 'car', center_x: 1.75, center_y: 2.5, width: 2.5, height: 4.49 });
    expect(out).toEqual({ label: 'car', center_x: 2, center_y: 3, width: 3, height: 4 });
    expect(Object.keys(out)).toEqual(['label', 'center_x', 'center_y', 'width', 'height']);
  });
});
