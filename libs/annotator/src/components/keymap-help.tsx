import type { JSX } from 'react';
import { formatCombo } from '../keymap/key-combo.util';
import { KEYMAP } from '../keymap/keymap';
import type { KeyBinding } from '../keymap/keymap';
import * as s from './annotator.styles';

export interface KeymapHelpProps {
  /** The bindings to list; the editor's keymap by default. */
  keymap?: readonly KeyBinding[];
  onClose?: () => void;
}

const POINTER_HELP: Array<[string, string]> = [
  ['Drag on the image', 'Draw a box with the current label'],
  ['Click a box', 'Select it'],
  ['Drag the selected box', 'Move it'],
  ['Drag a handle', 'Resize the selected box'],
  ['Wheel', 'Zoom at the cursor'],
  ['Space + drag, middle drag', 'Pan'],
];

const GROUPS: Array<KeyBinding['group']> = ['Draw and select', 'Edit', 'View', 'Help'];

/** The keymap, as the user sees it after pressing `?`: built from the same bindings the keys run. */
export function KeymapHelp({ keymap = KEYMAP, onClose }: KeymapHelpProps): JSX.Element {
  const shown = keymap.filter((b) => b.scope !== 'help');
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
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', gap: 16 }}>
        {GROUPS.map((group) => (
          <table key={group} style={{ borderCollapse: 'collapse', alignSelf: 'start' }}>
            <caption style={{ ...s.heading, textAlign: 'left' }}>{group}</caption>
            <tbody>
              {shown
                .filter((b) => b.group === group)
                .map((b) => (
                  <tr key={b.id}>
                    <td style={{ padding: '2px 12px 2px 0', whiteSpace: 'nowrap' }}>
                      <kbd>{b.display ?? b.keys.map(formatCombo).join(' / ')}</kbd>
                    </td>
                    <td style={{ padding: '2px 0' }}>{b.description}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        ))}
        <table style={{ borderCollapse: 'collapse', alignSelf: 'start' }}>
          <caption style={{ ...s.heading, textAlign: 'left' }}>Mouse</caption>
          <tbody>
            {POINTER_HELP.map(([what, does]) => (
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
