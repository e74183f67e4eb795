import { useState } from 'react';
import { sessionApi } from '../api/session.api';
import { ErrorList } from '../shell/error-list';
import { FormFields, NEW_PASSWORD_HINT, unclaimedErrors, useServerForm, type FormField } from '../shell/form-fields';
import { signedOutText } from './signed-out-text';

type FieldName = 'current_password' | 'new_password' | 'confirm';

const FIELDS: Array<FormField<FieldName>> = [
  { name: 'current_password', label: 'Current password', type: 'password', autoComplete: 'current-password' },
  { name: 'new_password', label: 'New password', type: 'password', autoComplete: 'new-password', hint: NEW_PASSWORD_HINT },
  { name: 'confirm', label: 'Confirm new password', type: 'password', autoComplete: 'new-password' },
];

const EMPTY: Record<FieldName, string> = { current_password: '', new_password: '', confirm: '' };

interface Props {
  /** The user's email, for password managers: they file the new password under it. */
  email: string;
  /** Called with a failed call's error (a 401 means this session itself has ended). */
  onError: (error: unknown) => void;
  /** Called once the password changed (and with it every other session ended). */
  onChanged?: () => void;
}

/** Current, new and confirm; the API's field errors under the fields, and how many other sessions it ended. */
export function ChangePasswordForm({ email, onError, onChanged }: Props) {
  const [done, setDone] = useState<string | null>(null);
  const form = useServerForm(
    EMPTY,
    async (values) => {
      setDone(null);
      const { signed_out_sessions } = await sessionApi.changePassword(values.current_password, values.new_password);
      form.setValues(EMPTY);
      setDone(`Your password was changed. ${signedOutText(signed_out_sessions)}`);
      onChanged?.();
    },
    {
      // The only check made here: the server never sees the confirmation.
      check: (values) => (values.new_password !== values.confirm ? [{ field: 'confirm', detail: 'does not match the new password' }] : []),
      onError,
    },
  );
  const { values, errors, busy } = form;

  return (
    <form ref={form.formRef} className="card account-card" onSubmit={form.onSubmit} noValidate aria-labelledby="change-password-title" data-testid="change-password-form">
      <h2 id="change-password-title">Change password</h2>
      <p className="muted">Every other device signed in to your account is signed out; this one stays signed in.</p>
      {done && (
        <p className="alert success" role="status" data-testid="password-changed">
          {done}
        </p>
      )}
      {/* Kept through the next try's refusal: "current password is wrong" is then what it explains. */}
      <ErrorList
        errors={unclaimedErrors(errors, FIELDS)}
        note={form.unsure ? 'No answer from the server: your password may have been changed. If you are asked to log in, or the current password is refused now, the new one is in force.' : undefined}
      />
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormFields
        idPrefix="account"
        fields={FIELDS}
        values={values}
        errors={errors}
        // What the last change did goes once the form is being filled in again, as Settings' "Saved." does.
        onChange={(name, value) => {
          setDone(null);
          form.change(name, value);
        }}
      />
      {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
      <button className="button primary" type="submit" aria-disabled={busy || undefined}>
        {busy ? 'Please wait…' : 'Change password'}
      </button>
    </form>
  );
}
