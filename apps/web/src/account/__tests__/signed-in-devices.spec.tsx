import type { SessionInfo } from '@crowdbox/contracts';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { formatDateTime } from '../../console/lib/format';
import { SignedInDevices } from '../signed-in-devices';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const session = (id: string, fields: Partial<SessionInfo>): SessionInfo => ({
  id,
  created_at: '2026-11-20T09:00:00.000Z',
  expires_at: '2026-12-20T09:00:00.000Z',
  last_used_at: null,
  user_agent: null,
  client_address: null,
  current: false,
  ...fields,
});

const THIS = session('s-this', { user_agent: FIREFOX, client_address: '203.0.113.7', last_used_at: '2026-11-26T20:00:00.000Z', current: true });
const PHONE = session('s-phone', { user_agent: IPHONE, client_address: '198.51.100.4', created_at: '2026-11-21T08:30:00.000Z', last_used_at: '2026-11-25T18:00:00.000Z' });
const SCRIPT = session('s-script', { user_agent: 'curl/8.5.0', created_at: '2026-11-22T07:00:00.000Z' });
const NOBODY = session('s-nobody', {});

const PHONE_WORDS = `Safari on iPhone (signed in ${formatDateTime(PHONE.created_at)})`;

afterEach(() => {
  jest.restoreAllMocks();
});

async function open(onError = jest.fn()) {
  render(<SignedInDevices onError={onError} refresh={0} />);
  await act(async () => undefined);
  return onError;
}

const rows = () => screen.queryAllByTestId('device-row');
const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('Signed-in devices', () => {
  it('lists every session: browser and address, when signed in and last active, this device marked and without Sign out', async () => {
    jest.spyOn(sessionApi, 'sessions').mockResolvedValue([THIS, PHONE, SCRIPT, NOBODY]);
    await open();
    expect(rows().map(cells)).toEqual([
      ['Firefox on Linux203.0.113.7This device', formatDateTime(THIS.created_at), formatDateTime(THIS.last_used_at), ''],
      ['Safari on iPhone198.51.100.4', formatDateTime(PHONE.created_at), formatDateTime(PHONE.last_used_at), 'Sign out'],
      ['curl/8.5.0address unknown', formatDateTime(SCRIPT.created_at), '—', 'Sign out'],
      ['Unknown browseraddress unknown', formatDateTime(NOBODY.created_at), '—', 'Sign out'],
    ]);
    // Signed-in and last-active times are the console's <time> with the exact value.
    expect(rows()[1].querySelector('time')?.getAttribute('datetime')).toBe(PHONE.created_at);
    // The whole User-Agent is on the name's title; the button names the device it signs out.
    expect(within(rows()[1]).getByText('Safari on iPhone').getAttribute('title')).toBe(IPHONE);
    expect(within(rows()[1]).getByRole('button').getAttribute('aria-label')).toBe(`Sign out ${PHONE_WORDS}`);
    expect(within(rows()[0]).queryByRole('button')).toBeNull();
  });

  it('signs a device out: its row goes, a sentence says so and takes the focus, and the list is read again', async () => {
    const sessions = jest.spyOn(sessionApi, 'sessions').mockResolvedValueOnce([THIS, PHONE, SCRIPT]).mockResolvedValueOnce([THIS, SCRIPT]);
    let answer: (value: { id: string; current: boolean }) => void = () => undefined;
    const endSession = jest.spyOn(sessionApi, 'endSession').mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    await open();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `Sign out ${PHONE_WORDS}` })));
    expect(endSession).toHaveBeenCalledWith('s-phone');
    // While on its way: said on the button, which keeps the focus; a second press sends nothing.
    const pressed = screen.getByRole('button', { name: `Sign out ${PHONE_WORDS}` });
    expect(pressed.textContent).toBe('Signing out…');
    await act(async () => fireEvent.click(screen.getAllByRole('button', { name: /^Sign out curl/ })[0]));
    expect(endSession).toHaveBeenCalledTimes(1);

    await act(async () => answer({ id: 's-phone', current: false }));
    expect(rows().map((row) => cells(row)[0])).toEqual(['Firefox on Linux203.0.113.7This device', 'curl/8.5.0address unknown']);
    const status = screen.getByTestId('device-signed-out');
    expect(status.textContent).toBe(`${PHONE_WORDS} is signed out: that device has to log in again.`);
    expect(document.activeElement).toBe(status);
    expect(sessions).toHaveBeenCalledTimes(2);
  });

  it('takes a device that had already ended off the list, and says it was already signed out', async () => {
    jest.spyOn(sessionApi, 'sessions').mockResolvedValueOnce([THIS, PHONE]).mockResolvedValueOnce([THIS]);
    jest.spyOn(sessionApi, 'endSession').mockRejectedValue(new ApiError(404, [{ field: 'root', detail: 'session not found' }]));
    await open();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `Sign out ${PHONE_WORDS}` })));
    expect(rows()).toHaveLength(1);
    const status = screen.getByTestId('device-signed-out');
    expect(status.textContent).toBe(`${PHONE_WORDS} was already signed out.`);
    expect(document.activeElement).toBe(status);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the row when the sign-out was refused, and says the device was not signed out', async () => {
    jest.spyOn(sessionApi, 'sessions').mockResolvedValue([THIS, PHONE]);
    jest.spyOn(sessionApi, 'endSession').mockRejectedValue(new ApiError(429, [{ field: 'root', detail: 'too many requests' }]));
    const onError = await open();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `Sign out ${PHONE_WORDS}` })));
    expect(rows()).toHaveLength(2);
    expect(screen.getByRole('alert').textContent).toBe(`${PHONE_WORDS} was not signed out.too many requests`);
    expect(screen.queryByTestId('device-signed-out')).toBeNull();
    expect(onError).toHaveBeenCalledWith(expect.any(ApiError));
  });

  it('after no answer, says the device may have been signed out and reads the list again', async () => {
    const sessions = jest.spyOn(sessionApi, 'sessions').mockResolvedValueOnce([THIS, PHONE]).mockResolvedValueOnce([THIS]);
    jest.spyOn(sessionApi, 'endSession').mockRejectedValue(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached.' }], false));
    await open();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `Sign out ${PHONE_WORDS}` })));
    expect(screen.getByRole('alert').textContent).toBe(`No answer from the server: ${PHONE_WORDS} may have been signed out. The list is read again.The server could not be reached.`);
    expect(sessions).toHaveBeenCalledTimes(2);
    expect(rows()).toHaveLength(1);
  });

  it('says it is loading, then shows a list that could not be read with Try again', async () => {
    let fail: (error: unknown) => void = () => undefined;
    jest
      .spyOn(sessionApi, 'sessions')
      .mockImplementationOnce(() => new Promise((_, reject) => (fail = reject)))
      .mockResolvedValueOnce([THIS]);
    render(<SignedInDevices onError={jest.fn()} refresh={0} />);
    expect(screen.getByRole('status').textContent).toBe('Loading signed-in devices…');
    await act(async () => fail(new ApiError(503, [{ field: 'root', detail: 'The server answered 503' }], false)));
    expect(screen.getByRole('alert').textContent).toBe('This could not be loaded.The server answered 503');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(rows()).toHaveLength(1);
  });

  it('reads the list again after signing out the other sessions', async () => {
    const sessions = jest.spyOn(sessionApi, 'sessions').mockResolvedValueOnce([THIS, PHONE, SCRIPT]).mockResolvedValueOnce([THIS]);
    jest.spyOn(sessionApi, 'logOutOthers').mockResolvedValue({ signed_out_sessions: 2 });
    await open();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign out of other sessions' })));
    expect(screen.getByTestId('others-signed-out').textContent).toBe('2 other sessions were signed out.');
    expect(sessions).toHaveBeenCalledTimes(2);
    expect(rows().map((row) => cells(row)[0])).toEqual(['Firefox on Linux203.0.113.7This device']);
  });
});
