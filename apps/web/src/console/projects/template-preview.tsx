import type { LabelResponse } from '@crowdbox/contracts';
import { renderTemplate } from '@crowdbox/contracts';
import { useMemo } from 'react';
import { TaskPrompt } from '../../work/task-prompt';
import { formatCents, formatDuration } from '../lib/format';

interface Props {
  template: string;
  values: Record<string, string>;
  displayName: string;
  description: string;
  labels: LabelResponse[];
  rewardCents: number | null;
  seconds: number | null;
}

/**
 * What a worker will see for a task with these substitutions: the server's renderTemplate (values
 * HTML-escaped) and then the worker app's own TaskPrompt (DOMPurify), the very same code path.
 */
export function TemplatePreview({ template, values, displayName, description, labels, rewardCents, seconds }: Props) {
  const html = useMemo(() => renderTemplate(template, values), [template, values]);
  return (
    <section className="card cbc-preview" aria-labelledby="cbc-preview-title">
      <div className="cbc-preview__bar">
        <h2 id="cbc-preview-title">Worker preview</h2>
        <span className="badge">live</span>
      </div>
      <p className="cbc-preview__project">
        <strong>{displayName || 'Display name'}</strong>
        {description && <span className="muted"> — {description}</span>}
      </p>
      <p className="muted cbc-small">
        {rewardCents !== null && Number.isFinite(rewardCents) ? `${formatCents(rewardCents)} per task` : 'reward not set'}
        {seconds !== null && Number.isFinite(seconds) && seconds > 0 ? ` · ${formatDuration(seconds)} to finish` : ''}
      </p>
      <div className="cbc-preview__prompt" aria-live="polite" data-testid="template-preview">
        <TaskPrompt html={html} />
      </div>
      <ul className="cbc-label-chips" aria-label="Labels workers pick from">
        {labels
          .filter((l) => l.name.trim())
          .map((l, i) => (
            <li key={`${l.name}-${i}`} className="cbc-label-chip">
              <span className="cbc-swatch" style={{ background: l.color }} aria-hidden="true" />
              <kbd>{i + 1}</kbd> {l.name}
            </li>
          ))}
      </ul>
    </section>
  );
}
