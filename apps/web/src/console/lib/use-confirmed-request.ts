import type { ErrorItem } from '@crowdbox/contracts';
import { useState } from 'react';
import { errorItems, mayHaveArrived } from '../../api/client';
import { useFocusStatus } from './use-focus-status';

/**
 * A destructive request behind a ConfirmDialog (cancel a task, cancel every outstanding one, rotate the
 * webhook signing secret): whether the dialog is open, busy while the request runs, then its result or
 * its errors. The result takes the focus when it comes (where the page shows one): the button that
 * opened the dialog is gone or disabled by then, and the focus would fall to the page's start. `onDone`
 * follows a success (the page reads its figures again), and a failure without an answer (`unsure`: the
 * server may have done it, say a proxy's 504 on a long cancel), so the page shows what is so rather than
 * figures from before. The page clears `errors` when it opens the dialog.
 */
export function useConfirmedRequest<T>(request: () => Promise<T>, onDone: () => void) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<T | null>(null);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [unsure, setUnsure] = useState(false);
  const resultRef = useFocusStatus(result);

  const confirm = async () => {
    setBusy(true);
    setUnsure(false);
    try {
      setResult(await request());
      setOpen(false);
      onDone();
    } catch (error) {
      setErrors(errorItems(error));
      setOpen(false);
      if (mayHaveArrived(error)) {
        setUnsure(true);
        onDone();
      }
    } finally {
      setBusy(false);
    }
  };

  return { open, setOpen, busy, result, setResult, errors, setErrors, unsure, resultRef, confirm };
}
