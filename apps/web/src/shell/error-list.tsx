import type { ErrorItem } from '@crowdbox/contracts';

interface Props {
  errors: ErrorItem[];
  title?: string;
  /**
   * What the form knows beside its errors, kept from one try to the next (a try that got no answer may
   * have been done): the title while there are errors, else shown alone as a status, so a later try's
   * field error is read together with it.
   */
  note?: string;
}

/**
 * Shows the API's `{field, detail}` errors; field `root` is shown as the detail alone. It is the form's
 * error summary: a refused submit with no field in error moves the focus here (useFocusFirstError).
 */
export function ErrorList({ errors, title, note }: Props) {
  if (errors.length === 0) {
    return note ? (
      <p className="alert warning" role="status" data-testid="error-note">
        {note}
      </p>
    ) : null;
  }
  const heading = note ?? title;
  return (
    <div className="alert error" role="alert" data-testid="error-list" data-error-summary tabIndex={-1}>
      {heading && <strong>{heading}</strong>}
      <ul>
        {errors.map((e, i) => (
          <li key={`${e.field}-${i}`}>{e.field && e.field !== 'root' ? <><code>{e.field}</code>: {e.detail}</> : e.detail}</li>
        ))}
      </ul>
    </div>
  );
}

/** The detail for one field, if the API named it. */
export function fieldError(errors: ErrorItem[], field: string): string | undefined {
  return errors.find((e) => e.field === field)?.detail;
}
