import type { LabelResponse } from '@crowdbox/contracts';
import { renderTemplate, sanitizeTemplate } from '@crowdbox/contracts';
import { useMemo } from 'react';
import { templateChangedBySave } from '../lib/project-draft';
import { TaskPrompt } from '../../work/task-prompt';
import { formatCents, formatDuration } from '../../shell/format';

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
 * What a worker will see for a task with these substitutions, through the server's own steps: the
 * template as saving stores it (sanitizeTemplate, the API's allowlist), renderTemplate (values
 * HTML-escaped), the allowlist again as at checkout, then the worker app's own TaskPrompt (DOMPurify).
 * DOMPurify alone let through tags the allowlist drops (`details`, `kbd`, …), which workers never see.
 * Not a live region: it changes at every keystroke, and a screen reader would read it all out each time.
 */
export function TemplatePreview({ template, values, displayName, description, labels, rewardCents, seconds }: Props) {
  const stored = useMemo(() => sanitizeTemplate(template), [template]);
  const html = useMemo(() => sanitizeTemplate(renderTemplate(stored, values)), [stored, values]);
  const changed = useMemo(() => templateChangedBySave(template, stored), [template, stored]);
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
      <div className="cbc-preview__prompt" data-testid="template-preview">
        <TaskPrompt html={html} />
      </div>
      {changed && (
        <p className="field-hint" data-testid="preview-allowlist-note">
          Saving leaves out the tags and attributes the template allowlist does not take; the preview already does.
        </p>
      )}
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
