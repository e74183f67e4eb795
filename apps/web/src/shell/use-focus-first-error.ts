import { useEffect, useRef, type RefObject } from 'react';

/**
 * After a refused submit, moves the focus to the form's first field in error (`aria-invalid`), whose
 * error a screen reader then reads with it (aria-describedby): the one way the app's forms say what was
 * refused and where. Returns the function to call with the refusal; errors that change otherwise (cleared
 * while typing) leave the focus where it is.
 */
export function useFocusFirstError(form: RefObject<HTMLFormElement | null>): () => void {
  const refused = useRef(false);
  useEffect(() => {
    if (!refused.current) return;
    refused.current = false;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
  return () => {
    refused.current = true;
  };
}
