import { useEffect, type ReactNode } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './confirm-dialog';

interface Props {
  /** While true, leaving the page asks first. */
  when: boolean;
  title: string;
  /** What is lost by leaving. */
  children: ReactNode;
}

/**
 * Asks before leaving a page that holds something shown only once (a new key's secret): a link inside
 * the app opens this dialog (the app runs on a data router, so useBlocker sees every in-app navigation),
 * and a reload, a typed address or closing the tab gets the browser's own "Leave site?" (beforeunload).
 */
export function LeaveGuard({ when, title, children }: Props) {
  const blocker = useBlocker(when);

  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);

  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      danger
      title={title}
      confirmLabel="Leave anyway"
      cancelLabel="Stay on this page"
      // Closing the dialog after proceeding fires its close event too; only a blocked navigation is reset.
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    >
      {children}
    </ConfirmDialog>
  );
}
