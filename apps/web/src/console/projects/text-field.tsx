export interface FieldOptions {
  hint?: string;
  type?: string;
  min?: number;
  max?: number;
  step?: number;
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

/** One input of the project form with its label, and its hint or the server's error under it. */
export function TextField({ id, name, label, value, error, onChange, hint, type, min, max, step }: Props) {
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
