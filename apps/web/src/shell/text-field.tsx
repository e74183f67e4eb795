export interface FieldOptions {
  hint?: string;
  type?: string;
  min?: number;
  max?: number;
  step?: number;
  autoComplete?: string;
  required?: boolean;
}

interface Props extends FieldOptions {
  id: string;
  name: string;
  label: string;
  value: string;
  /** The API's words for this field; shown in place of the hint, and read with the input (aria-describedby). */
  error?: string;
  onChange: (value: string) => void;
}

/**
 * One input with its label, and its hint or the server's error under it, linked to the input
 * (aria-describedby) so a screen reader reads it: the one way every form of the app (log-in and
 * sign-up, the account page, the console's project form) shows a field.
 */
export function TextField({ id, name, label, value, error, onChange, hint, type, min, max, step, autoComplete, required }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type ?? 'text'}
        min={min}
        max={max}
        step={step}
        autoComplete={autoComplete}
        required={required}
        inputMode={type === 'number' ? 'decimal' : undefined}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : (
        hint && (
          <p className="field-hint" id={`${id}-hint`}>
            {hint}
          </p>
        )
      )}
    </div>
  );
}
