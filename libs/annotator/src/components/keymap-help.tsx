import type { JSX } from 'react';
import { formatCombo } from '../keymap/key-combo.util';
import { KEYMAP } from '../keymap/keymap';
import type { KeyBinding } from '../keymap/keymap';
import * as s from './annotator.styles';

export interface KeymapHelpProps {
  /** The bindings to list; the editor's keymap by default. */
  keymap?: readonly KeyBinding[];
  /** Lists only what a viewer can do: no edit keys, no drawing. */
  readOnly?: boolean;
  onClose?: () => void;
}

const POINTER_HELP: Array<[string, string, 'edit' | 'view']> = [
  ['Drag on the image', 'Draw a box with the current label', 'edit'],
  ['Click a box', 'Select it', 'view'],
  ['Drag the selected box', 'Move it', 'edit'],
  ['Drag a handle', 'Resize the selected box', 'edit'],
  ['Wheel', 'Zoom at the cursor', 'view'],
  ['Space + drag, middle drag', 'Pan', 'view'],
  ['Two fingers apart or together, two-finger drag', 'Zoom and pan on a touch screen', 'view'],
];

/** Bindings that change boxes (or the label of the next one): not shown to a viewer. */
const isEdit = (b: KeyBinding): boolean => b.group === 'Edit' || b.id === 'pickLabel' || b.id === 'placeBox';

const GROUPS: Array<KeyBinding['group']> = ['Draw and select', 'Edit', 'View', 'Help'];

/** The keymap, as the user sees it after pressing `?`: built from the same bindings the keys run. */
export function KeymapHelp({ keymap = KEYMAP, readOnly = false, onClose }: KeymapHelpProps): JSX.Element {
  // One row per display and description: the four arrows are one row, not four.
  const rows = new Map<string, { group: KeyBinding['group']; keys: string[]; description: string }>();
  for (const b of keymap) {
    if (b.scope === 'help' || (readOnly && isEdit(b))) continue;
    const keys = b.display ? [b.display] : b.keys.map(formatCombo);
    rows.set(`${keys.join('|')}|${b.description}`, { group: b.group, keys, description: b.description });
  }
  return (
    <div
      role="dialog"
      aria-label="Keyboard shortcuts"
      data-testid="annotator-keymap"
      style={{
        position: 'absolute',
        inset: 12,
        overflow: 'auto',
        padding: 16,
        background: 'rgba(255, 255, 255, 0.97)',
        borderRadius: 6,
        boxShadow: '0 4px 24px rgba(0, 0, 0, 0.35)',
        zIndex: 10,
        fontSize: 13,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', marginBottom: 8 }}>
        <h2 style={{ margin: 0, fontSize: 16 }}>Keyboard shortcuts</h2>
        {onClose && (
          <button type="button" onClick={onClose} style={{ ...s.button, marginLeft: 'auto' }}>
            Close (Esc)
          </button>
        )}
      </div>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))', gap: 16 }}>
        {GROUPS.filter((group) => [...rows.values()].some((row) => row.group === group)).map((group) => (
          <table key={group} style={{ borderCollapse: 'collapse', alignSelf: 'start' }}>
            <caption style={{ ...s.heading, textAlign: 'left' }}>{group}</caption>
            <tbody>
              {[...rows.values()]
                .filter((row) => row.group === group)
                .map((row) => (
                  <tr key={`${row.keys.join('|')}|${row.description}`}>
                    <td style={{ padding: '2px 12px 2px 0', whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                      {row.keys.map((k) => (
                        <kbd key={k} style={{ display: 'block' }}>
                          {k}
                        </kbd>
                      ))}
                    </td>
                    <td style={{ padding: '2px 0' }}>{row.description}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        ))}
        <table style={{ borderCollapse: 'collapse', alignSelf: 'start' }}>
          <caption style={{ ...s.heading, textAlign: 'left' }}>Mouse</caption>
          <tbody>
            {POINTER_HELP.filter(([, , kind]) => !readOnly || kind === 'view').map(([what, does]) => (
              <tr key={what}>
                <td style={{ padding: '2px 12px 2px 0', whiteSpace: 'nowrap' }}>{what}</td>
                <td style={{ padding: '2px 0' }}>{does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
