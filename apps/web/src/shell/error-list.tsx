import type { ErrorItem } from '@crowdbox/contracts';

/** Shows the API's `{field, detail}` errors; field `root` is shown as the detail alone. */
export function ErrorList({ errors, title }: { errors: ErrorItem[]; title?: string }) {
  if (errors.length === 0) return null;
  return (
    <div className="alert error" role="alert" data-testid="error-list">
      {title && <strong>{title}</strong>}
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
