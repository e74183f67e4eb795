import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../api/client';
import { sessionApi } from '../../api/session.api';
import { SessionProvider } from '../session-context';

// react-router needs TextEncoder, which jsdom lacks: the router and the pages are imported once it is there.
let router: typeof import('react-router');
let pages: typeof import('../auth-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, pages] = await Promise.all([import('react-router'), import('../auth-page')]);
});

const NO_ANSWER = () => new ApiError(0, [{ field: 'root', detail: 'The server could not be reached. Check your connection and try again.' }], false);
const MAYBE_MADE = 'No answer from the server: your account may have been made. Log in with this email and password.';

beforeEach(() => {
  jest.spyOn(sessionApi, 'me').mockRejectedValue(new ApiError(401, [{ field: 'root', detail: 'not signed in' }]));
});

afterEach(() => {
  jest.restoreAllMocks();
});

async function open(path: '/login' | '/signup') {
  const { MemoryRouter, Route, Routes } = router;
  const { LoginPage, SignupPage } = pages;
  render(
    <SessionProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/work" element={<p>Find work</p>} />
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
  await act(async () => undefined);
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })));

function fillSignup(password = 'correct horse battery') {
  type('Your name', 'Sam Signup');
  type('Email', 'sam@example.com');
  type('Password', password);
}

describe('sign-up', () => {
  it('clears a field’s error when that field is edited, and keeps the other fields’ errors', async () => {
    jest.spyOn(sessionApi, 'signUp').mockRejectedValue(
      new ApiError(422, [
        { field: 'email', detail: 'must be an email address' },
        { field: 'password', detail: 'must be at least 8 characters' },
      ]),
    );
    await open('/signup');
    fillSignup('short');
    await submit('Create an account');
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')).toBe('auth-password-error');
    // The focus is on the first field in error.
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));

    type('Password', 'shorter');
    expect(password.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('must be at least 8 characters')).toBeNull();
    expect(password.getAttribute('aria-describedby')).toBe('auth-password-hint');
    expect(screen.getByText('must be an email address')).toBeTruthy();
  });

  it('states the server’s rule for a new password: 8 to 200 characters', async () => {
    await open('/signup');
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    expect(password.getAttribute('type')).toBe('password');
    expect(document.getElementById(password.getAttribute('aria-describedby') ?? '')?.textContent).toBe('8 to 200 characters.');
    expect(screen.getByLabelText('Email').getAttribute('autocomplete')).toBe('email');
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Your name').getAttribute('autocomplete')).toBe('name');
  });

  it('after a sign-up that got no answer, keeps saying the account may have been made beside the next try’s refusal', async () => {
    jest
      .spyOn(sessionApi, 'signUp')
      .mockRejectedValueOnce(NO_ANSWER())
      .mockRejectedValueOnce(new ApiError(422, [{ field: 'email', detail: 'is already registered' }]));
    await open('/signup');
    fillSignup();
    await submit('Create an account');
    const summary = screen.getByRole('alert');
    expect(summary.textContent).toContain(MAYBE_MADE);
    // No field is in error: the focus is on the summary, from which Tab leads into the form.
    expect(document.activeElement).toBe(summary);

    await submit('Create an account');
    expect(screen.getByText('is already registered')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(MAYBE_MADE);
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });

  it('sends one sign-up for two presses made before the page could redraw', async () => {
    // The answer never comes: the first sign-up stays on its way.
    const signUp = jest.spyOn(sessionApi, 'signUp').mockImplementation(() => new Promise(() => undefined));
    await open('/signup');
    fillSignup();
    const form = screen.getByTestId('signup-form');
    await act(async () => {
      fireEvent.submit(form);
      fireEvent.submit(form);
    });
    expect(signUp).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Please wait…' }).getAttribute('aria-disabled')).toBe('true');
  });
});

describe('log-in', () => {
  it('moves the focus to the error summary when the refusal names no field, and keeps that error while a field is edited', async () => {
    jest.spyOn(sessionApi, 'logIn').mockRejectedValue(new ApiError(401, [{ field: 'root', detail: 'email or password is wrong' }]));
    await open('/login');
    expect(screen.getByLabelText('Email').getAttribute('autocomplete')).toBe('username');
    expect(screen.getByLabelText('Password').getAttribute('autocomplete')).toBe('current-password');
    type('Email', 'lou@example.com');
    type('Password', 'not the password');
    await submit('Log in');
    const summary = screen.getByRole('alert');
    expect(summary.textContent).toBe('email or password is wrong');
    expect(document.activeElement).toBe(summary);
    // A form-level error stays until the next submit.
    type('Password', 'another try');
    expect(screen.getByRole('alert').textContent).toBe('email or password is wrong');
  });

  it('says nothing of an account made after a log-in that got no answer', async () => {
    jest.spyOn(sessionApi, 'logIn').mockRejectedValue(NO_ANSWER());
    await open('/login');
    type('Email', 'lou@example.com');
    type('Password', 'the password');
    await submit('Log in');
    expect(screen.getByRole('alert').textContent).toBe('The server could not be reached. Check your connection and try again.');
  });
});
