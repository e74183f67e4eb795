/** The note above a console form whose stored draft was restored ('restored') or dropped as outdated. */
export function DraftNote({ status, onDiscard, onDismiss }: { status: 'restored' | 'outdated' | null; onDiscard: () => void; onDismiss: () => void }) {
  if (status === 'restored') {
    return (
      <div className="alert info cbc-draft-note" role="status" data-testid="draft-restored">
        <span>Restored what you typed before you were signed out or left this page.</span>
        <button type="button" className="button small" onClick={onDiscard}>
          Discard it
        </button>
      </div>
    );
  }
  if (status === 'outdated') {
    return (
      <div className="alert warning cbc-draft-note" role="status" data-testid="draft-outdated">
        <span>What you typed before you were signed out was not restored: the project has been changed since. The form shows it as saved now.</span>
        <button type="button" className="button ghost small" onClick={onDismiss} aria-label="Dismiss message">
          ✕
        </button>
      </div>
    );
  }
  return null;
}
