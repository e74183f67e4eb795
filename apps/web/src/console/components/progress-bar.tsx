interface Props {
  complete: number;
  outstanding: number;
  cancelled: number;
}

/** One bar split into complete / outstanding / cancelled tasks, with the counts spelled out beside it. */
export function ProgressBar({ complete, outstanding, cancelled }: Props) {
  const total = complete + outstanding + cancelled;
  const pct = (n: number) => (total === 0 ? 0 : (n / total) * 100);
  const label = `${complete} complete, ${outstanding} outstanding, ${cancelled} cancelled`;
  return (
    <div className="cbc-progress" role="img" aria-label={label}>
      <span className="cbc-progress__complete" style={{ width: `${pct(complete)}%` }} />
      <span className="cbc-progress__outstanding" style={{ width: `${pct(outstanding)}%` }} />
      <span className="cbc-progress__cancelled" style={{ width: `${pct(cancelled)}%` }} />
    </div>
  );
}
