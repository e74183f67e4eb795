import type { ErrorItem } from '@crowdbox/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { errorItems, mayHaveArrived } from '../api/client';
import { sessionApi } from '../api/session.api';
import { ErrorList } from '../shell/error-list';
import { FormFields, unclaimedErrors, type FormField } from '../shell/form-fields';
import { useFocusFirstError } from '../shell/use-focus-first-error';
import { signedOutText } from './signed-out-text';

type FieldName = 'current_password' | 'new_password' | 'confirm';

const FIELDS: Array<FormField<FieldName>> = [
  { name: 'current_password', label: 'Current password', type: 'password', autoComplete: 'current-password' },
  { name: 'new_password', label: 'New password', type: 'password', autoComplete: 'new-password', hint: 'At least 8 characters.' },
  { name: 'confirm', label: 'Confirm new password', type: 'password', autoComplete: 'new-password' },
];

const EMPTY: Record<FieldName, string> = { current_password: '', new_password: '', confirm: '' };

interface Props {
  /** The user's email, for password managers: they file the new password under it. */
  email: string;
  /** Called with a failed call's error (a 401 means this session itself has ended). */
  onError: (error: unknown) => void;
}

/** Current, new and confirm; the API's field errors under the fields, and how many other sessions it ended. */
export function ChangePasswordForm({ email, onError }: Props) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The last change got no answer: the server may have made it, and the old password then is refused.
  const [unsure, setUnsure] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const refused = useFocusFirstError(formRef);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setDone(null);
    // The only check made here: the server never sees the confirmation.
    if (values.new_password !== values.confirm) {
      refused();
      setErrors([{ field: 'confirm', detail: 'does not match the new password' }]);
      return;
    }
    setBusy(true);
    setErrors([]);
    try {
      const { signed_out_sessions } = await sessionApi.changePassword(values.current_password, values.new_password);
      setValues(EMPTY);
      setUnsure(false);
      setDone(`Your password was changed. ${signedOutText(signed_out_sessions)}`);
    } catch (error) {
      refused();
      setErrors(errorItems(error));
      // Kept through the next try's refusal: "current password is wrong" is then what this explains.
      if (mayHaveArrived(error)) setUnsure(true);
      onError(error);
    } finally {
      setBusy(false);
    }
  };

  const rootErrors = unclaimedErrors(errors, FIELDS);
  return (
    <form ref={formRef} className="card account-card" onSubmit={onSubmit} noValidate aria-labelledby="change-password-title" data-testid="change-password-form">
      <h2 id="change-password-title">Change password</h2>
      <p className="muted">Every other device signed in to your account is signed out; this one stays signed in.</p>
      {done && (
        <p className="alert success" role="status" data-testid="password-changed">
          {done}
        </p>
      )}
      {unsure && (
        <p className="alert warning" role="status" data-testid="password-maybe-changed">
          No answer from the server: your password may have been changed. If the current password is refused now, the new one is in force.
        </p>
      )}
      <ErrorList errors={rootErrors} />
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormFields idPrefix="account" fields={FIELDS} values={values} errors={errors} onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))} />
      {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
      <button className="button primary" type="submit" aria-disabled={busy || undefined}>
        {busy ? 'Please wait…' : 'Change password'}
      </button>
    </form>
  );
}
