import type { ErrorItem } from '@crowdbox/contracts';
import { useEffect, useRef, useState } from 'react';
import { errorItems } from '../../api/client';

/**
 * A destructive request behind a ConfirmDialog (cancel a task, cancel every outstanding one): whether
 * the dialog is open, busy while the request runs, then its result or its errors. The result takes the
 * focus when it comes: the button that opened the dialog is gone or disabled by then, and the focus
 * would fall to the page's start. `onDone` follows a success (the page reads its figures again).
 */
export function useConfirmedRequest<T>(request: () => Promise<T>, onDone: () => void) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<T | null>(null);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const resultRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);

  const confirm = async () => {
    setBusy(true);
    try {
      setResult(await request());
      setOpen(false);
      onDone();
    } catch (error) {
      setErrors(errorItems(error));
      setOpen(false);
    } finally {
      setBusy(false);
    }
  };

  return { open, setOpen, busy, result, setResult, errors, setErrors, resultRef, confirm };
}
