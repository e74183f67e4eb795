/** One figure in a <dl className="cbc-stats">: a small label over a large value. */
export function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="cbc-stat" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
