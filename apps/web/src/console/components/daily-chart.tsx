export interface DailyPoint {
  day: string;
  created: number;
  completed: number;
}

interface Props {
  daily: DailyPoint[];
  /** `small` is the sparkline of the project list; `large` has axes and a legend. */
  size?: 'small' | 'large';
}

const SIZES = {
  small: { width: 240, height: 48, pad: { top: 2, right: 2, bottom: 2, left: 2 } },
  large: { width: 720, height: 200, pad: { top: 12, right: 8, bottom: 28, left: 36 } },
};

/** Tasks created and completed per day as paired bars, in plain SVG (no chart library in the bundle). */
export function DailyChart({ daily, size = 'large' }: Props) {
  const { width, height, pad } = SIZES[size];
  const created = daily.reduce((sum, d) => sum + d.created, 0);
  const completed = daily.reduce((sum, d) => sum + d.completed, 0);
  const max = Math.max(1, ...daily.map((d) => Math.max(d.created, d.completed)));
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const slot = plotW / Math.max(1, daily.length);
  const bar = Math.max(1, slot / 2 - 1);
  const y = (v: number) => pad.top + plotH - (v / max) * plotH;
  const summary = `Last ${daily.length} days: ${created} tasks created, ${completed} completed`;

  return (
    <figure className={`cbc-chart cbc-chart--${size}`}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img"
        aria-label={summary}
        preserveAspectRatio={size === 'small' ? 'none' : 'xMidYMid meet'}
        data-testid="daily-chart">
        {size === 'large' && (
          <g className="cbc-chart__axis" aria-hidden="true">
            <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} />
            <line x1={pad.left} x2={width - pad.right} y1={y(max)} y2={y(max)} strokeDasharray="3 3" />
            <text x={pad.left - 6} y={y(max) + 4} textAnchor="end">
              {max}
            </text>
            <text x={pad.left - 6} y={y(0) + 4} textAnchor="end">
              0
            </text>
            {daily.length > 0 && (
              <>
                <text x={pad.left} y={height - 8}>
                  {shortDay(daily[0].day)}
                </text>
                <text x={width - pad.right} y={height - 8} textAnchor="end">
                  {shortDay(daily[daily.length - 1].day)}
                </text>
              </>
            )}
          </g>
        )}
        {size === 'small' && <line className="cbc-chart__base" x1={0} x2={width} y1={y(0)} y2={y(0)} aria-hidden="true" />}
        {daily.map((d, i) => {
          const x = pad.left + i * slot + (slot - 2 * bar) / 2;
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${d.created} created, ${d.completed} completed`}</title>
              <rect className="cbc-chart__created" x={x} y={y(d.created)} width={bar} height={y(0) - y(d.created)} />
              <rect className="cbc-chart__completed" x={x + bar} y={y(d.completed)} width={bar} height={y(0) - y(d.completed)} />
              {/* An invisible full-height target, so the day's title shows wherever the pointer is. */}
              <rect x={pad.left + i * slot} y={pad.top} width={slot} height={plotH} fill="transparent" />
            </g>
          );
        })}
      </svg>
      {size === 'large' && (
        <figcaption className="cbc-chart__legend">
          <span className="cbc-chart__key cbc-chart__key--created">created ({created})</span>
          <span className="cbc-chart__key cbc-chart__key--completed">completed ({completed})</span>
          <span className="muted">per day, last {daily.length} days (UTC)</span>
        </figcaption>
      )}
    </figure>
  );
}

function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}
