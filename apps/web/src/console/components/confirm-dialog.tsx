import { useEffect, useId, useRef, type ReactNode } from 'react';
import './confirm-dialog.css';

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** A destructive action gets the danger colour, and the focus starts on Cancel. */
  danger?: boolean;
  /** The confirmed request is running: the dialog stays open (Escape too) until it is done. */
  busy?: boolean;
  /** False when there is nothing to confirm (the dialog then only says so): the confirm button is disabled. */
  canConfirm?: boolean;
  /** Runs the request; without it the confirm button submits `form`. */
  onConfirm?: () => void;
  /**
   * The id of a form in the body whose fields the confirmation needs (a password): the confirm button
   * submits it, as Enter in its fields does, and the form's own submit runs the request.
   */
  form?: string;
  onClose: () => void;
}

/**
 * A modal built on <dialog>: the browser traps focus, Escape closes it, and the page behind is inert.
 * While busy it stays open, so a request that cannot be called back is never hidden half-done.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Cancel', danger, busy, canConfirm = true, onConfirm, form, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      if (danger) cancelRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open, danger]);

  return (
    <dialog
      ref={ref}
      className="cbc-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        if (busy) event.preventDefault();
        else onClose();
      }}
      onClose={() => {
        // Chromium lets a second Escape with no click between close a dialog without a cancelable
        // cancel event (its rule against dialogs that trap the user), so a busy one is shown again.
        if (busy && open) ref.current?.showModal();
        else onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div className="cbc-dialog__body">{children}</div>
      <div className="cbc-dialog__actions">
        <button ref={cancelRef} type="button" className="button" onClick={onClose} disabled={busy}>
          {cancelLabel}
        </button>
        <button
          type={form ? 'submit' : 'button'}
          form={form}
          className={`button ${danger ? 'danger' : 'primary'}`}
          onClick={onConfirm}
          disabled={busy || !canConfirm}
        >
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
