import { useEffect, useRef, type RefObject } from 'react';

/**
 * The ref for the status sentence that says what an action did (Unblock, Revoke, a confirmed request's
 * result), which takes the focus each time it says something new. The button pressed is often gone by
 * then (with its row, its key, or the dialog that held it), and the focus would fall to the page's start:
 * on the sentence, a screen reader reads what happened and the keyboard goes on from where it was. The
 * element needs `tabIndex={-1}`. An empty `status` (nothing to say yet, or cleared for the next try)
 * leaves the focus where it is.
 */
export function useFocusStatus<T extends HTMLElement = HTMLParagraphElement>(status: unknown): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (status) ref.current?.focus();
  }, [status]);
  return ref;
}
