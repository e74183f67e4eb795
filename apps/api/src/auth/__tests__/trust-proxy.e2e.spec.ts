import { Logger } from '@nestjs/common';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { signUp } from '../../../test/factories';
import { FAILURES_PER_ADDRESS } from '../login-throttle';

/**
 * TRUST_PROXY decides whose X-Forwarded-For is believed, and so which address the log-in throttle counts
 * failures under. What a client can see of it is when its failures start answering 429.
 */
describe('TRUST_PROXY (whose X-Forwarded-For is believed)', () => {
  /** Log-ins for one email, each from `peer` (the socket's address) with the given X-Forwarded-For. */
  const logInAs = (t: TestApp, email: string) => (password: string, peer: string, forwardedFor?: string) =>
    t.request({
      method: 'POST',
      url: '/api/session/login',
      remoteAddress: peer,
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      body: { email, password },
    });

  describe('by default (a proxy on loopback only)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('counts a client that connects directly under its own address, whatever X-Forwarded-For it forges', async () => {
      const user = await signUp(t, { password: 'right password' });
      const logIn = logInAs(t, user.email);
      for (let i = 0; i < FAILURES_PER_ADDRESS; i += 1) {
        expect((await logIn(`guess ${i}`, '198.51.100.20', `203.0.113.${i + 1}`)).status).toBe(401);
      }
      const held = await logIn('right password', '198.51.100.20', '203.0.113.200');
      expect(held.status).toBe(429);
      expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
      // Another client is not held back by it.
      expect((await logIn('right password', '198.51.100.21')).status).toBe(200);
    });

    it('behind a proxy on this host, takes the address the proxy appended, not what the client put before it', async () => {
      const user = await signUp(t, { password: 'right password' });
      const logIn = logInAs(t, user.email);
      // nginx's $proxy_add_x_forwarded_for: the client's own header, then the address it connected from.
      for (let i = 0; i < FAILURES_PER_ADDRESS; i += 1) {
        expect((await logIn(`guess ${i}`, '127.0.0.1', `203.0.113.${i + 1}, 198.51.100.30`)).status).toBe(401);
      }
      expect((await logIn('right password', '127.0.0.1', '203.0.113.200, 198.51.100.30')).status).toBe(429);
      expect((await logIn('right password', '127.0.0.1', '203.0.113.200, 198.51.100.31')).status).toBe(200);
    });
  });

  describe('a proxy TRUST_PROXY does not list', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('is named in a warning, once an hour, when its X-Forwarded-For is ignored on a route whose address counts', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn');
      try {
        const user = await signUp(t, { password: 'right password' });
        const logIn = logInAs(t, user.email);
        const ignored = () => warn.mock.calls.filter(([message]) => String(message).includes('X-Forwarded-For'));
        // No header, or a trusted peer's: nothing to say.
        expect((await logIn('right password', '10.20.30.40')).status).toBe(200);
        expect((await logIn('right password', '127.0.0.1', '198.51.100.50')).status).toBe(200);
        expect(ignored()).toEqual([]);

        expect((await logIn('right password', '10.20.30.40', '198.51.100.51')).status).toBe(200);
        expect(ignored()).toEqual([[expect.stringMatching(/ignored X-Forwarded-For from 10\.20\.30\.40, which TRUST_PROXY does not list/)]]);
        // Not again within the hour, from any peer or route.
        expect((await logIn('right password', '10.20.30.41', '198.51.100.52')).status).toBe(200);
        await t.request({ method: 'POST', url: '/api/session/signup', remoteAddress: '10.20.30.42', headers: { 'x-forwarded-for': '198.51.100.53' }, body: {} });
        expect(ignored()).toHaveLength(1);
      } finally {
        warn.mockRestore();
      }
    });
  });

  /** The "ignored X-Forwarded-For" warnings logged while `run` runs. */
  const warningsDuring = async (run: () => Promise<unknown>): Promise<string[]> => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      await run();
      return warn.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('X-Forwarded-For'));
    } finally {
      warn.mockRestore();
    }
  };

  describe('TRUST_PROXY=true', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ TRUST_PROXY: 'true' });
    });
    afterAll(() => t.close());

    it('never warns, whatever the header holds (even the peer itself, or nothing)', async () => {
      const user = await signUp(t, { password: 'right password' });
      const logIn = logInAs(t, user.email);
      expect(
        await warningsDuring(async () => {
          expect((await logIn('right password', '10.9.9.9', '10.9.9.9')).status).toBe(200);
          expect((await logIn('right password', '10.9.9.9', '')).status).toBe(200);
        }),
      ).toEqual([]);
    });
  });

  describe('TRUST_PROXY=10.0.0.0/8', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ TRUST_PROXY: '10.0.0.0/8' });
    });
    afterAll(() => t.close());

    // First in this app: the warning is logged once an hour at most.
    it('warns of an unlisted peer only, not of a listed one whose header names itself', async () => {
      const user = await signUp(t, { password: 'right password' });
      const logIn = logInAs(t, user.email);
      expect(await warningsDuring(() => logIn('right password', '10.1.2.3', '10.1.2.3'))).toEqual([]);
      expect(await warningsDuring(() => logIn('right password', '127.0.0.1', '198.51.100.60'))).toEqual([
        expect.stringMatching(/^ignored X-Forwarded-For from 127\.0\.0\.1, which TRUST_PROXY does not list/),
      ]);
    });

    it('believes a listed proxy and nobody else, loopback included', async () => {
      const user = await signUp(t, { password: 'right password' });
      const logIn = logInAs(t, user.email);
      for (let i = 0; i < FAILURES_PER_ADDRESS; i += 1) {
        expect((await logIn(`guess ${i}`, '10.1.2.3', '198.51.100.40')).status).toBe(401);
      }
      expect((await logIn('right password', '10.1.2.3', '198.51.100.40')).status).toBe(429);
      // Through the same proxy, another client is another address.
      expect((await logIn('right password', '10.1.2.3', '198.51.100.41')).status).toBe(200);

      const other = await signUp(t, { password: 'right password' });
      const fromLoopback = logInAs(t, other.email);
      for (let i = 0; i < FAILURES_PER_ADDRESS; i += 1) {
        expect((await fromLoopback(`guess ${i}`, '127.0.0.1', `203.0.113.${i + 1}`)).status).toBe(401);
      }
      expect((await fromLoopback('right password', '127.0.0.1', '203.0.113.200')).status).toBe(429);
    });

  });
});
