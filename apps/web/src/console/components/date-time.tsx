import { formatDateTime } from '../lib/format';

/**
 * A moment from the API in the browser's time zone, named, inside a <time> whose `dateTime` and title
 * hold the exact ISO value (UTC), for copying and for assistive technology. "—" when there is none.
 */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso)}
    </time>
  );
}
