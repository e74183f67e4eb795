import dns, { type LookupAddress } from 'node:dns';
import { displayCallbackUrl, normalizeCallbackUrl } from '../callback-url';
import { nextDelayMs, verdictOf } from '../retry-policy';
import { forbiddenLiteralHost, isForbiddenAddress, receiverLookup } from '../ssrf-guard';
import { retryAfterMs } from '../webhook-sender';

describe('callback address normalization', () => {
  it('lower-cases scheme and host, drops the default port, keeps path and query', () => {
    expect(normalizeCallbackUrl('HTTPS://Hooks.Example.COM:443/Path?A=B')).toBe('https://hooks.example.com/Path?A=B');
    expect(normalizeCallbackUrl('http://example.com:80/x')).toBe('http://example.com/x');
    expect(normalizeCallbackUrl('http://example.com:8080/x')).toBe('http://example.com:8080/x');
  });

  it('drops the fragment, which is never sent', () => {
    expect(normalizeCallbackUrl('https://hooks.example.com/x?a=b#task-1')).toBe('https://hooks.example.com/x?a=b');
    expect(normalizeCallbackUrl('https://hooks.example.com/x#')).toBe('https://hooks.example.com/x');
  });

  it('shows an address registered with a user name or password with them masked', () => {
    expect(displayCallbackUrl('https://user:s3cret@hooks.example.com/x')).toBe('https://***@hooks.example.com/x');
    expect(displayCallbackUrl('https://:s3cret@hooks.example.com/x')).toBe('https://***@hooks.example.com/x');
    // A secret in the user name's place, as in https://<token>@host/, is hidden too.
    expect(displayCallbackUrl('https://tok3n@hooks.example.com/x')).toBe('https://***@hooks.example.com/x');
    expect(displayCallbackUrl('https://hooks.example.com/x?a=b')).toBe('https://hooks.example.com/x?a=b');
  });
});

describe('retry policy (API.md §2)', () => {
  const outcome = (status?: number) => ({ status, durationMs: 1, reply: '', excerpt: '' });
  it('delivers on 2xx, retries on no reply, 408, 425, 429 and 5xx, fails on other statuses', () => {
    for (const s of [200, 201, 204, 299]) expect(verdictOf(outcome(s))).toBe('delivered');
    for (const s of [undefined, 408, 425, 429, 500, 502, 503, 599]) expect(verdictOf(outcome(s))).toBe('retry');
    for (const s of [300, 301, 302, 400, 401, 403, 404, 410, 422]) expect(verdictOf(outcome(s))).toBe('failed');
    // Not an HTTP status class at all: a receiver's bug, not a 5xx to retry for a day.
    for (const s of [600, 799, 999]) expect(verdictOf(outcome(s))).toBe('failed');
  });

  const schedule = { delaysSeconds: [5, 30, 120, 600, 1800, 3600, 10800, 21600, 43200, 86400], retryAfterMaxSeconds: 3600 };
  it('follows the schedule with ±10 % jitter, then stops after ten retries', () => {
    expect(nextDelayMs(1, schedule, undefined, () => 0)).toBe(4500);
    expect(nextDelayMs(1, schedule, undefined, () => 1)).toBe(5500);
    expect(nextDelayMs(2, schedule, undefined, () => 0.5)).toBe(30_000);
    expect(nextDelayMs(10, schedule, undefined, () => 0.5)).toBe(86_400_000);
    expect(nextDelayMs(11, schedule, undefined, () => 0.5)).toBeUndefined();
  });

  it('honours Retry-After when longer than the schedule, up to one hour', () => {
    expect(nextDelayMs(1, schedule, 60_000, () => 0.5)).toBe(60_000);
    expect(nextDelayMs(1, schedule, 1000, () => 0.5)).toBe(5000);
    expect(nextDelayMs(1, schedule, 7_200_000, () => 0.5)).toBe(3_600_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 1)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(60_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    // Digits followed by anything else are neither delay-seconds nor a date: ignored, not read as 120 s.
    expect(retryAfterMs('120abc')).toBeUndefined();
    expect(retryAfterMs('5 seconds')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('SSRF guard', () => {
  it('refuses loopback, private, link-local (metadata), unique-local, CGNAT and unspecified addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::', '::7f00:1', '::a00:1', '::808:808']) {
      expect([ip, isForbiddenAddress(ip)]).toEqual([ip, true]);
    }
    for (const ip of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect([ip, isForbiddenAddress(ip)]).toEqual([ip, false]);
  });

  it('fails the lookup of a name that resolves to loopback', async () => {
    const error = await new Promise<Error | null>((resolve) => receiverLookup(false, 3_000)('localhost', {}, (e) => resolve(e)));
    expect(error?.message).toMatch(/localhost resolves to .* private or reserved/);
  });

  it('fails the lookup of a name when any of its addresses is forbidden, not only the first', async () => {
    // The client may connect to any address of the list (all: true), so one private address among public ones is enough.
    const answer: LookupAddress[] = [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    const lookup = jest.spyOn(dns, 'lookup').mockImplementation(((_host: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) =>
      callback(null, answer)) as unknown as typeof dns.lookup);
    try {
      const error = await new Promise<Error | null>((resolve) => receiverLookup(false, 3_000)('mixed.example', {}, (e) => resolve(e)));
      expect(error?.message).toMatch(/mixed\.example resolves to 10\.0\.0\.7, a private or reserved address/);
    } finally {
      lookup.mockRestore();
    }
  });

  it('refuses a URL whose host is a forbidden IP literal, IPv6 in brackets included (no lookup ever sees it)', () => {
    expect(forbiddenLiteralHost(new URL('http://[::1]:8080/hook'))).toBe('::1 is a private or reserved address');
    expect(forbiddenLiteralHost(new URL('https://[fd00::1]/hook'))).toBe('fd00::1 is a private or reserved address');
    expect(forbiddenLiteralHost(new URL('http://127.0.0.1/hook'))).toBe('127.0.0.1 is a private or reserved address');
    expect(forbiddenLiteralHost(new URL('https://[2606:4700:4700::1111]/hook'))).toBeUndefined();
    expect(forbiddenLiteralHost(new URL('https://hooks.example.com/hook'))).toBeUndefined();
  });
});
