import { useEffect, useRef, useState } from 'react';
import './text-field.css';

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
 * sign-up, the account page, the console's project form) shows a field. A password has a Show button
 * (then Hide; never a submit) that shows what was typed, for a long password typed on a phone; it is hidden
 * again when the form is sent, so it is not left on screen and password managers see a password field.
 */
export function TextField({ id, name, label, value, error, onChange, hint, type, min, max, step, autoComplete, required }: Props) {
  const [shown, setShown] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const password = type === 'password';

  useEffect(() => {
    const form = inputRef.current?.form;
    if (!shown || !form) return;
    const hide = () => setShown(false);
    form.addEventListener('submit', hide);
    return () => form.removeEventListener('submit', hide);
  }, [shown]);

  const input = (
    <input
      ref={inputRef}
      id={id}
      name={name}
      type={password && shown ? 'text' : (type ?? 'text')}
      min={min}
      max={max}
      step={step}
      autoComplete={autoComplete}
      // What is typed is a password or an address, never words: no capital first letter, no corrections.
      autoCapitalize={password || type === 'email' ? 'none' : undefined}
      autoCorrect={password || type === 'email' ? 'off' : undefined}
      spellCheck={password || type === 'email' ? false : undefined}
      required={required}
      inputMode={type === 'number' ? 'decimal' : undefined}
      value={value}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
      onChange={(e) => onChange(e.target.value)}
    />
  );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {password ? (
        <div className="text-field-reveal">
          {input}
          {/* Its words say what it does next (no aria-pressed beside them: "Hide, pressed" reads as twice the same). */}
          <button type="button" className="button" aria-controls={id} onClick={() => setShown((s) => !s)}>
            {shown ? 'Hide' : 'Show'}
          </button>
        </div>
      ) : (
        input
      )}
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
