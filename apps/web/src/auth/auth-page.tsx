import type { ReactNode } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ErrorList } from '../shell/error-list';
import { FormFields, NEW_PASSWORD_HINT, unclaimedErrors, useServerForm, type FormField } from '../shell/form-fields';
import { safeNext } from './require-session';
import { useSession } from './session-context';

type Field = FormField<'name' | 'email' | 'password'>;

interface AuthFormProps {
  mode: 'login' | 'signup';
}

const FIELDS: Record<AuthFormProps['mode'], Field[]> = {
  login: [
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'username' },
    { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
  ],
  signup: [
    { name: 'name', label: 'Your name', type: 'text', autoComplete: 'name' },
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
    { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password', hint: NEW_PASSWORD_HINT },
  ],
};

/** The log-in and sign-up pages: one form, the API's field errors shown beside the fields. */
function AuthForm({ mode }: AuthFormProps) {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  // Set by the account page after a deletion; kept in the session, so no link can make the page say it.
  const accountDeleted = session.state.status === 'anonymous' && session.state.ended === 'account-deleted';
  // A sign-up without an answer may have made the account (a second try would say the email is taken): the
  // form says so until a try succeeds. A log-in without an answer did nothing a second try would undo.
  const form = useServerForm({ name: '', email: '', password: '' }, async (values) => {
    if (mode === 'login') await session.logIn(values.email, values.password);
    else await session.signUp(values.email, values.password, values.name);
    navigate(next, { replace: true });
  });
  const { values, errors, busy } = form;

  if (session.state.status === 'signed-in' && !busy) return <Navigate to={next} replace />;

  const title = mode === 'login' ? 'Log in' : 'Create an account';
  const otherLink: ReactNode =
    mode === 'login' ? (
      <>
        New here? <Link to={`/signup${params.size ? `?${params}` : ''}`}>Create an account</Link>
      </>
    ) : (
      <>
        Already have an account? <Link to={`/login${params.size ? `?${params}` : ''}`}>Log in</Link>
      </>
    );
  const rootErrors = unclaimedErrors(errors, FIELDS[mode]);

  return (
    <div className="auth-page">
      <form ref={form.formRef} className="card auth-card" onSubmit={form.onSubmit} noValidate aria-labelledby="auth-title" data-testid={`${mode}-form`}>
        <h1 id="auth-title">{title}</h1>
        <p className="muted">One account works on tasks and runs projects.</p>
        {accountDeleted && mode === 'login' && (
          <p className="alert success" role="status" data-testid="account-deleted">
            Your account was deleted and you were signed out everywhere.
          </p>
        )}
        <ErrorList
          errors={rootErrors}
          note={mode === 'signup' && form.unsure ? 'No answer from the server: your account may have been made. Log in with this email and password.' : undefined}
        />
        <FormFields idPrefix="auth" fields={FIELDS[mode]} values={values} errors={errors} onChange={form.change} />
        {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
        <button className="button primary wide" type="submit" aria-disabled={busy || undefined}>
          {busy ? 'Please wait…' : title}
        </button>
        <p className="auth-switch">{otherLink}</p>
      </form>
    </div>
  );
}

export function LoginPage() {
  return <AuthForm mode="login" />;
}

export function SignupPage() {
  return <AuthForm mode="signup" />;
}
