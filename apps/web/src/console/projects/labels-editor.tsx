import type { LabelResponse } from '@crowdbox/contracts';
import { nextLabelColor } from '../lib/project-draft';

interface Props {
  labels: LabelResponse[];
  /** `edited`: the one label changed in place; absent when a label was added or removed (positions moved). */
  onChange: (labels: LabelResponse[], edited?: number) => void;
  /** The API's errors for `labels` and `labels.<i>...`. */
  errorFor: (field: string) => string | undefined;
}

/** The labels workers draw with: a name and a colour each, in the order keys 1–9 pick them. */
export function LabelsEditor({ labels, onChange, errorFor }: Props) {
  const update = (index: number, patch: Partial<LabelResponse>) => onChange(labels.map((l, i) => (i === index ? { ...l, ...patch } : l)), index);
  const listError = errorFor('labels');
  return (
    <fieldset className="cbc-fieldset">
      <legend>Labels</legend>
      <p className="field-hint">Workers pick a label for each box (keys 1–9 in order). Each label draws in its colour.</p>
      <ol className="cbc-labels" data-testid="labels-editor">
        {labels.map((label, index) => {
          const error = errorFor(`labels.${index}.name`) ?? errorFor(`labels.${index}.color`) ?? errorFor(`labels.${index}`);
          const nameId = `label-name-${index}`;
          return (
            <li key={index} className="cbc-labels__row">
              <input
                type="color"
                className="cbc-color"
                value={label.color}
                aria-label={`Colour of label ${index + 1}`}
                onChange={(e) => update(index, { color: e.target.value })}
              />
              <label htmlFor={nameId} className="visually-hidden">
                Name of label {index + 1}
              </label>
              <input
                id={nameId}
                className="input"
                value={label.name}
                placeholder="e.g. car"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${nameId}-error` : undefined}
                onChange={(e) => update(index, { name: e.target.value })}
              />
              <button
                type="button"
                className="button ghost small"
                aria-label={`Remove label ${label.name || index + 1}`}
                disabled={labels.length === 1}
                onClick={() => onChange(labels.filter((_, i) => i !== index))}
              >
                Remove
              </button>
              {error && (
                <p className="field-error cbc-labels__error" id={`${nameId}-error`}>
                  {error}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {listError && <p className="field-error">{listError}</p>}
      <button type="button" className="button small" onClick={() => onChange([...labels, { name: '', color: nextLabelColor(labels) }])}>
        Add label
      </button>
    </fieldset>
  );
}
