import type { ErrorItem } from '@crowdbox/contracts';
import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { errorItems, mayHaveArrived } from '../api/client';
import { fieldError } from './error-list';
import { TextField } from './text-field';
import { useFocusFirstError } from './use-focus-first-error';

/** One required input of a form whose values are kept by field name. */
export interface FormField<N extends string> {
  name: N;
  label: string;
  type: string;
  autoComplete: string;
  hint?: string;
}

/**
 * A new password's rule in words: the server's (libs/contracts session.schema.ts: sign-up and a password
 * change take 8 to 200 characters). The browser does not cut a longer one short (no maxLength): a pasted or
 * generated password would then be saved by a password manager other than it was sent.
 */
export const NEW_PASSWORD_HINT = '8 to 200 characters.';

interface Props<N extends string> {
  /** Makes the inputs' ids: `<idPrefix>-<name>`. */
  idPrefix: string;
  fields: ReadonlyArray<FormField<N>>;
  values: Record<N, string>;
  errors: ErrorItem[];
  onChange: (name: N, value: string) => void;
}

/** A form's fields, each a TextField with its value and the API's error for it (log-in, sign-up, the account page). */
export function FormFields<N extends string>({ idPrefix, fields, values, errors, onChange }: Props<N>) {
  return (
    <>
      {fields.map((field) => (
        <TextField
          key={field.name}
          id={`${idPrefix}-${field.name}`}
          name={field.name}
          label={field.label}
          type={field.type}
          autoComplete={field.autoComplete}
          required
          hint={field.hint}
          value={values[field.name]}
          error={fieldError(errors, field.name)}
          onChange={(value) => onChange(field.name, value)}
        />
      ))}
    </>
  );
}

/** The errors no field of the form owns, for the ErrorList above it. */
export function unclaimedErrors(errors: ErrorItem[], fields: ReadonlyArray<{ name: string }>): ErrorItem[] {
  return errors.filter((e) => !fields.some((f) => f.name === e.field));
}

export interface ServerFormOptions<N extends string> {
  /** Checks made in the browser before anything is sent (a password's confirmation): errors refuse the submit. */
  check?: (values: Record<N, string>) => ErrorItem[];
  /** Called with a failed send's error, after it is shown (the account page reads a 401 as the session ended). */
  onError?: (error: unknown) => void;
}

export interface ServerForm<N extends string> {
  formRef: RefObject<HTMLFormElement | null>;
  values: Record<N, string>;
  /** The last submit's errors, less those of the fields edited since. */
  errors: ErrorItem[];
  /** A submit is on its way: the button says so and another press (or Enter) does nothing. */
  busy: boolean;
  /** A try got no answer (the server may have acted on it), and none has succeeded since. */
  unsure: boolean;
  /** Sets one field; its error goes, the form's other errors stay. */
  change: (name: N, value: string) => void;
  setValues: (values: Record<N, string>) => void;
  /**
   * The form as first shown, for a form closed and opened again (a dialog's): its values and errors go, so
   * no "is wrong" stays under an emptied field. `unsure` stays: a try may still have been done.
   */
  reset: () => void;
  onSubmit: (event: FormEvent) => Promise<void>;
}

/**
 * The state and submit of a form whose fields the server validates (log-in, sign-up, Change password), so
 * every such form behaves alike (docs/console.md, "Forms"):
 * - editing a field clears that field's error; an error no field owns stays until the next submit;
 * - a refused submit moves the focus to the first field in error, else to the error summary;
 * - one submit at a time: a second press, or Enter, while one is on its way does nothing;
 * - a try that got no answer (`mayHaveArrived`) sets `unsure` until a try succeeds, so the form can say
 *   that it may have been done, also beside the next try's refusal that this explains.
 * `send` gets the values and resolves when the server said yes.
 */
export function useServerForm<N extends string>(
  initial: Record<N, string>,
  send: (values: Record<N, string>) => Promise<void>,
  { check, onError }: ServerFormOptions<N> = {},
): ServerForm<N> {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  const [unsure, setUnsure] = useState(false);
  // Read at the press, not from the last render: two presses in one frame both saw busy false.
  const sending = useRef(false);
  const refused = useFocusFirstError(formRef);

  const change = (name: N, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((list) => (list.some((e) => e.field === name) ? list.filter((e) => e.field !== name) : list));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const local = check?.(values) ?? [];
    if (local.length > 0) {
      refused();
      setErrors(local);
      return;
    }
    sending.current = true;
    setBusy(true);
    setErrors([]);
    try {
      await send(values);
      setUnsure(false);
    } catch (error) {
      refused();
      setErrors(errorItems(error));
      if (mayHaveArrived(error)) setUnsure(true);
      onError?.(error);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const reset = () => {
    setValues(initial);
    setErrors([]);
  };

  return { formRef, values, errors, busy, unsure, change, setValues, reset, onSubmit };
}
