import './problem-report.css';
import { TASK_PROBLEMS, type TaskProblem } from '@crowdbox/contracts';
import { useId, useState, type KeyboardEvent } from 'react';
import { PROBLEM_TEXT } from '../shell/problem-text';

export interface ProblemReportProps {
  /** Boxes drawn on the task: reporting throws them away, which the panel says instead of asking again. */
  boxes: number;
  /** The reason chosen on opening ("Report broken image and skip" opens it on image_broken). */
  initial?: TaskProblem;
  onReport: (problem: TaskProblem) => void;
  onCancel: () => void;
}

/**
 * "Report a problem", in place of Submit and Skip as SkipConfirm is: the worker says what is wrong and
 * the task is given back with that reason, as Skip gives it back. Loaded on demand (lazy-problem-report.tsx),
 * outside the worker bundle. A fixed list, no free text (docs/decisions.md, "Problem reports"). The focus
 * starts on the chosen reason, or the first; Escape cancels.
 */
export function ProblemReport({ boxes, initial, onReport, onCancel }: ProblemReportProps) {
  const titleId = useId();
  const name = useId();
  const [problem, setProblem] = useState<TaskProblem | undefined>(initial);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    // Answered here and nowhere else (the annotator deselects on Escape).
    e.stopPropagation();
    onCancel();
  };
  const focused = initial ?? TASK_PROBLEMS[0];
  return (
    <div className="alert info problem-report" role="group" aria-labelledby={titleId} onKeyDown={onKeyDown} data-testid="problem-report">
      <p id={titleId}>
        <strong>Report a problem with this task</strong>
      </p>
      <fieldset>
        <legend>What is wrong?</legend>
        {TASK_PROBLEMS.map((p) => (
          <label key={p}>
            <input type="radio" name={name} value={p} checked={problem === p} onChange={() => setProblem(p)} autoFocus={p === focused} />
            {PROBLEM_TEXT[p]}
          </label>
        ))}
      </fieldset>
      <p>
        The task is skipped and goes back to other workers; its owner sees what you reported.
        {boxes > 0 && <strong> Your {boxes === 1 ? '1 box' : `${boxes} boxes`} will be thrown away.</strong>}
      </p>
      <div className="task-actions">
        <button type="button" className="button primary" disabled={!problem} onClick={() => problem && onReport(problem)}>
          Report and skip
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
