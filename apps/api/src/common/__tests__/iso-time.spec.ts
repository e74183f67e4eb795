import { isIsoTime } from '../validation/iso-time';

describe('isIsoTime', () => {
  it.each(['2026-11-25T12:00:00.123Z', '2026-11-25 16:40:21.883123+00', '2026-11-25', '2026-11-25T12:00+05:30', '2024-02-29T00:00:00Z'])(
    'takes %s',
    (value) => expect(isIsoTime(value)).toBe(true),
  );

  it.each(['1', 'yesterday', '2026-13-01', '2026-02-31T00:00:00Z', '2026-11-25T25:00:00Z', '2026-11-25T12:00:00.1234567Z', ''])(
    'refuses %s, which PostgreSQL would refuse too (or read as something else)',
    (value) => expect(isIsoTime(value)).toBe(false),
  );
});
