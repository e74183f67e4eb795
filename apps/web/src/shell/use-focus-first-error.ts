import { useEffect, useRef, type RefObject } from 'react';

/**
 * After a refused submit, moves the focus to the form's first field in error (`aria-invalid`), whose
 * error a screen reader then reads with it (aria-describedby); when no field is in error (a refused
 * log-in, a request that got no answer), to the form's error summary (ErrorList, `data-error-summary`),
 * from which Tab leads into the form's fields. The one way the app's forms say what was refused and
 * where. Returns the function to call with the refusal; errors that change otherwise (cleared while
 * typing) leave the focus where it is.
 */
export function useFocusFirstError(form: RefObject<HTMLFormElement | null>): () => void {
  const refused = useRef(false);
  useEffect(() => {
    if (!refused.current) return;
    refused.current = false;
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.current?.querySelector<HTMLElement>('[data-error-summary]');
    target?.focus();
  });
  return () => {
    refused.current = true;
  };
}
