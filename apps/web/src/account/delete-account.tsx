import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { sessionApi } from '../api/session.api';
import { useSession } from '../auth/session-context';
import { ConfirmDialog } from '../console/components/confirm-dialog';
import { ErrorList } from '../shell/error-list';
import { FormFields, unclaimedErrors, useServerForm, type FormField } from '../shell/form-fields';

const FIELDS: Array<FormField<'password'>> = [{ name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' }];
const EMPTY = { password: '' };

interface Props {
  /** Called with a failed call's error (a 401 means this session itself has ended). */
  onError: (error: unknown) => void;
}

/**
 * "Delete account" (docs/decisions.md, "Deleting an account"): a confirmation that says what goes and
 * what stays and asks for the password; the API's errors are shown in it. Once deleted, every session
 * has ended, this one too, so the app is signed out and the log-in page says why.
 */
export function DeleteAccount({ onError }: Props) {
  const session = useSession();
  const navigate = useNavigate();
  const formId = useId();
  const [open, setOpen] = useState(false);
  const form = useServerForm(
    EMPTY,
    async (values) => {
      await sessionApi.deleteAccount(values.password);
      // Signed out first: the log-in page would send a signed-in user on. It says why (the session's `ended`),
      // whether it is reached from here or through RequireSession's redirect from this page.
      session.signedOut('account-deleted');
      navigate('/login', { replace: true });
    },
    { onError },
  );
  const close = () => {
    setOpen(false);
    // Values and errors both: reopened, the dialog showed the last try's "is wrong" under an empty field.
    form.reset();
  };

  return (
    <section className="card account-card" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete account</h2>
      <p className="muted">Deleting your account cannot be undone. The work already done for others stays, without your name or email.</p>
      <button type="button" className="button danger" onClick={() => setOpen(true)}>
        Delete account…
      </button>
      <ConfirmDialog open={open} danger busy={form.busy} title="Delete your account?" confirmLabel="Delete my account" cancelLabel="Keep it" form={formId} onClose={close}>
        <ul data-testid="delete-account-summary">
          <li>Your projects are archived and their outstanding tasks cancelled; no more webhooks are sent.</li>
          <li>Your API keys are revoked, and every device is signed out, this one too.</li>
          <li>Tasks you are working on are given back.</li>
          <li>Results stay: the tasks, submissions and answers already made are kept for the people who paid for them or did them.</li>
          <li>Your name and email are erased; the email can sign up again as a new account.</li>
        </ul>
        {/* Offered where the decision is made: once deleted, nothing of the account can be downloaded. */}
        <p data-testid="delete-account-download">
          Want a copy first?{' '}
          <a href={sessionApi.exportUrl} download>
            Download your data
          </a>{' '}
          before you delete it.
        </p>
        <form ref={form.formRef} id={formId} onSubmit={form.onSubmit} noValidate>
          <ErrorList
            errors={unclaimedErrors(form.errors, FIELDS)}
            note={form.unsure ? 'No answer from the server: your account may have been deleted. Try again: if it was, you will be asked to log in.' : undefined}
          />
          <input type="email" name="username" autoComplete="username" value={session.user?.email ?? ''} readOnly hidden />
          <FormFields idPrefix="delete-account" fields={FIELDS} values={form.values} errors={form.errors} onChange={form.change} />
        </form>
      </ConfirmDialog>
    </section>
  );
}
