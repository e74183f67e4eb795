import type { ErrorItem } from '@crowdbox/contracts';
import { fieldError } from './error-list';
import { TextField } from './text-field';

/** One required input of a form whose values are kept by field name. */
export interface FormField<N extends string> {
  name: N;
  label: string;
  type: string;
  autoComplete: string;
  hint?: string;
}

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
