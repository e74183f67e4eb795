import { useId, useState } from 'react';
import { estimateCents } from '../lib/project-draft';
import { formatCents } from '../../shell/format';

interface Props {
  requiredSubmissions: string;
  rewardCents: string;
}

/** tasks x required submissions x reward: what a batch of this size will cost at the defaults. */
export function CostEstimate({ requiredSubmissions, rewardCents }: Props) {
  const [tasks, setTasks] = useState('100');
  const inputId = useId();
  const total = estimateCents(tasks, requiredSubmissions, rewardCents);
  return (
    <section className="card cbc-estimate" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>Cost estimate</h2>
      <div className="cbc-estimate__row">
        <div className="field cbc-estimate__tasks">
          <label htmlFor={inputId}>Tasks</label>
          <input id={inputId} type="number" min={0} step={1} inputMode="numeric" value={tasks} onChange={(e) => setTasks(e.target.value)} />
        </div>
        <p className="cbc-estimate__formula" aria-live="polite" data-testid="cost-estimate">
          {total === null ? (
            <span className="muted">Enter whole numbers of tasks, required submissions and reward (cents) to see the cost.</span>
          ) : (
            <>
              {tasks} tasks × {requiredSubmissions} submissions × {formatCents(Number(rewardCents))} ={' '}
              <strong className="cbc-estimate__total">{formatCents(total)}</strong>
            </>
          )}
        </p>
      </div>
      <p className="field-hint">Paid to workers as submissions arrive; tasks you cancel stop costing.</p>
    </section>
  );
}
