import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { ErrorItem } from '@crowdbox/contracts';
import { errorItems, mayHaveArrived } from '../api/client';
import { ErrorList } from '../shell/error-list';
import { FormFields, unclaimedErrors, type FormField } from '../shell/form-fields';
import { useFocusFirstError } from '../shell/use-focus-first-error';
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
    { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password', hint: 'At least 8 characters.' },
  ],
};

/** The log-in and sign-up pages: one form, the API's field errors shown beside the fields. */
function AuthForm({ mode }: AuthFormProps) {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [values, setValues] = useState({ name: '', email: '', password: '' });
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  // A sign-up without an answer may have made the account: a second try would say the email is taken.
  const [unsure, setUnsure] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const refused = useFocusFirstError(formRef);

  if (session.state.status === 'signed-in' && !busy) return <Navigate to={next} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors([]);
    try {
      if (mode === 'login') await session.logIn(values.email, values.password);
      else await session.signUp(values.email, values.password, values.name);
      navigate(next, { replace: true });
    } catch (error) {
      refused();
      setErrors(errorItems(error));
      setUnsure(mode === 'signup' && mayHaveArrived(error));
      setBusy(false);
    }
  };

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
      <form ref={formRef} className="card auth-card" onSubmit={onSubmit} noValidate aria-labelledby="auth-title" data-testid={`${mode}-form`}>
        <h1 id="auth-title">{title}</h1>
        <p className="muted">One account works on tasks and runs projects.</p>
        <ErrorList errors={rootErrors} title={unsure ? 'No answer from the server: your account may have been made. Log in with this email and password.' : undefined} />
        <FormFields idPrefix="auth" fields={FIELDS[mode]} values={values} errors={errors} onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))} />
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
