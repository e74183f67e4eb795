import type { JSX } from 'react';
import type { LabelInfo } from '@crowdbox/contracts';
import * as s from './annotator.styles';

export interface LabelPickerProps {
  labels: readonly LabelInfo[];
  /** The selected box's label, or the label of the next box when nothing is selected. */
  active: string;
  hasSelection: boolean;
  onPick: (label: string) => void;
}

/** For an editor: one button per label, with its colour and its key (1–9). A viewer gets LabelLegend instead. */
export function LabelPicker({ labels, active, hasSelection, onPick }: LabelPickerProps): JSX.Element {
  return (
    <section aria-label="Labels">
      <h3 style={s.heading}>{hasSelection ? 'Label of the selected box' : 'Label for new boxes'}</h3>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
        {labels.map((label, i) => {
          const pressed = label.name === active;
          return (
            <button
              key={label.name}
              type="button"
              data-testid={`annotator-label-${label.name}`}
              aria-pressed={pressed}
              title={i < 9 ? `Key ${i + 1}` : undefined}
              onClick={() => onPick(label.name)}
              style={{
                ...s.button,
                display: 'inline-flex',
                alignItems: 'center',
                gap: 6,
                borderColor: pressed ? label.color : '#c9ced6',
                boxShadow: pressed ? `inset 0 0 0 1px ${label.color}` : undefined,
                fontWeight: pressed ? 600 : 400,
              }}
            >
              <span aria-hidden style={s.swatch(label.color)} />
              {label.name}
              {i < 9 && (
                <kbd aria-hidden style={{ fontSize: 11, color: '#59636e' }}>
                  {i + 1}
                </kbd>
              )}
            </button>
          );
        })}
      </div>
    </section>
  );
}

/** For a viewer, who draws nothing and picks nothing: each label's colour and name, as plain text. */
export function LabelLegend({ labels }: { labels: readonly LabelInfo[] }): JSX.Element {
  return (
    <section aria-label="Labels" data-testid="annotator-label-legend">
      <h3 style={s.heading}>Labels</h3>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: '4px 12px' }}>
        {labels.map((label) => (
          <li key={label.name} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
            <span aria-hidden style={s.swatch(label.color)} />
            {label.name}
          </li>
        ))}
      </ul>
    </section>
  );
}
