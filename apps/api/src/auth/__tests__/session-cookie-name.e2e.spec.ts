import { signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';

/**
 * The session cookie cannot be planted (session-cookie.ts): over HTTPS it is `__Host-cb_session`, which a
 * browser takes only from this host over HTTPS, and a header naming the cookie twice names no session.
 * A `cb_session` set by a sibling subdomain with a longer Path came first in the header, and the parser
 * kept it: the victim's requests ran as the attacker's account.
 */
describe('the session cookie', () => {
  const me = (t: TestApp, cookie: string) => t.request({ method: 'GET', url: '/api/session/me', headers: { cookie } });

  describe('when Secure (COOKIE_SECURE, production, or HTTPS)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ COOKIE_SECURE: 'true' });
    });
    afterAll(() => t.close());

    it('is __Host-cb_session, and a planted cb_session beside it is ignored', async () => {
      const res = await t.request({ method: 'POST', url: '/api/session/signup', body: { email: 'host-prefix@example.com', password: 'correct horse battery', name: 'Victim' } });
      expect(res.status).toBe(201);
      expect(String(res.headers['set-cookie'])).toMatch(/^__Host-cb_session=cbs_[^;]+;.*Path=\/;.*HttpOnly;.*Secure/i);
      const victim = String(res.headers['set-cookie']).split(';')[0];
      const attacker = await signUp(t);

      const planted = await me(t, `cb_session=${attacker.token}; ${victim}`);
      expect(planted.status).toBe(200);
      expect(planted.body.data.user.email).toBe('host-prefix@example.com');
      // The plain name alone is no session here.
      expect((await me(t, `cb_session=${attacker.token}`)).status).toBe(401);
    });

    it('names no session when the header holds the cookie twice', async () => {
      const [victim, attacker] = [await signUp(t), await signUp(t)];
      const res = await me(t, `__Host-cb_session=${attacker.token}; __Host-cb_session=${victim.token}`);
      expect(res).toMatchObject({ status: 401, body: { errors: [{ field: 'root' }] } });
    });

    it('is cleared under its own name at log-out', async () => {
      const user = await signUp(t);
      const res = await t.request({ method: 'POST', url: '/api/session/logout', headers: user.auth });
      expect(res.status).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/^__Host-cb_session=;.*Path=\/;.*Expires=Thu, 01 Jan 1970/i);
    });
  });

  describe('over plain HTTP (development)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ COOKIE_SECURE: 'false' });
    });
    afterAll(() => t.close());

    it('is cb_session, and a header holding it twice names no session', async () => {
      const [victim, attacker] = [await signUp(t), await signUp(t)];
      expect((await me(t, `cb_session=${victim.token}`)).body.data.user.id).toBe(victim.userId);
      expect((await me(t, `cb_session=${attacker.token}; cb_session=${victim.token}`)).status).toBe(401);
      expect((await me(t, `other=1; cb_session=${victim.token}; theme=dark`)).status).toBe(200);
    });
  });
});
