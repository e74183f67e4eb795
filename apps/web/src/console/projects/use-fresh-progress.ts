import type { ErrorItem } from '@crowdbox/contracts';
import { useState } from 'react';
import { errorItems } from '../../api/client';
import { consoleApi, type ProjectProgress } from '../lib/console-api';

interface Dialog {
  setOpen: (open: boolean) => void;
  setErrors: (errors: ErrorItem[]) => void;
  setResult: (result: null) => void;
}

/**
 * Opens a confirmation whose figures come from the project's progress (cancel outstanding, archive) after
 * reading it afresh: the page's copy may be minutes old. When that read fails the dialog does not open,
 * since the figures shown would be old; its error shows instead. `reading` lets the opener say so (and
 * stay focusable, aria-disabled); `fresh` is the page's copy until the first read.
 */
export function useFreshProgress(projectUuid: string, progress: ProjectProgress, dialog: Dialog) {
  const [reading, setReading] = useState(false);
  const [fresh, setFresh] = useState(progress);

  const openDialog = async () => {
    if (reading) return;
    dialog.setErrors([]);
    dialog.setResult(null);
    setReading(true);
    try {
      setFresh(await consoleApi.progress(projectUuid));
      dialog.setOpen(true);
    } catch (error) {
      dialog.setErrors(errorItems(error));
    } finally {
      setReading(false);
    }
  };

  return { reading, fresh, openDialog };
}
