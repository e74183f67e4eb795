import { actions } from '../store/editor.actions';
import type { EditorAction } from '../store/editor.actions';

/**
 * Where a binding applies. 'editor': focus is inside the annotator or nowhere (the page body).
 * 'stage': focus is on the canvas itself (Tab would otherwise move focus). 'help': the keymap
 * overlay is open. No binding ever fires while focus is in a text field.
 */
export type KeyScope = 'editor' | 'stage' | 'help';

/** Things a key does that are not edits of the store. */
export type UiCommand = 'toggleHelp' | 'closeHelp' | 'holdPan' | 'leaveStage';

export type KeyCommand = { action: EditorAction } | { ui: UiCommand };

export interface KeyBinding {
  id: string;
  /** Combos as parseCombo reads them. */
  keys: string[];
  scope: KeyScope;
  /** Only with (or without) a selected box, or with any box; otherwise the key is left to the browser. */
  when?: 'selection' | 'noSelection' | 'boxes';
  group: 'Draw and select' | 'Edit' | 'View' | 'Help';
  description: string;
  /** Shown instead of the list of keys; bindings with the same display and description share a help row. */
  display?: string;
  /** The command for the key that was pressed (the digit, for 1–9). */
  command: KeyCommand | ((key: string) => KeyCommand);
}

const act = (action: EditorAction): KeyCommand => ({ action });

const NUDGE = 1;
const BIG_NUDGE = 10;

const arrows = [
  { key: 'arrowleft', dx: -1, dy: 0, name: 'left' },
  { key: 'arrowright', dx: 1, dy: 0, name: 'right' },
  { key: 'arrowup', dx: 0, dy: -1, name: 'up' },
  { key: 'arrowdown', dx: 0, dy: 1, name: 'down' },
];

/** The one keymap of the editor, shown to the user by `?` (KeymapHelp). Order is priority. */
export const KEYMAP: readonly KeyBinding[] = [
  { id: 'closeHelp', keys: ['escape', 'question'], scope: 'help', group: 'Help', description: 'Close this help', command: { ui: 'closeHelp' } },
  { id: 'toggleHelp', keys: ['question'], scope: 'editor', group: 'Help', description: 'Show or hide the keymap', command: { ui: 'toggleHelp' } },

  { id: 'nextBox', keys: ['tab'], scope: 'stage', when: 'boxes', group: 'Draw and select', description: 'Select the next box', command: act(actions.cycleSelection(1)) },
  { id: 'previousBox', keys: ['shift+tab'], scope: 'stage', when: 'boxes', group: 'Draw and select', description: 'Select the previous box', command: act(actions.cycleSelection(-1)) },
  { id: 'deselect', keys: ['escape'], scope: 'editor', when: 'selection', group: 'Draw and select', description: 'Deselect', command: act(actions.select(null)) },
  { id: 'leaveStage', keys: ['escape'], scope: 'stage', when: 'noSelection', group: 'Draw and select', description: 'Leave the canvas (when nothing is selected)', command: { ui: 'leaveStage' } },
  {
    id: 'placeBox',
    keys: ['n'],
    scope: 'editor',
    group: 'Draw and select',
    description: 'New box in the middle of the view, with the current label (then arrows move it, Alt+arrows size it)',
    command: act(actions.placeBox()),
  },
  {
    id: 'pickLabel',
    keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9'],
    scope: 'editor',
    group: 'Draw and select',
    description: 'Relabel the selected box, or pick the label for the next box',
    display: '1 – 9',
    command: (key) => act(actions.pickLabelNumber(Number(key))),
  },

  { id: 'delete', keys: ['delete', 'backspace'], scope: 'editor', when: 'selection', group: 'Edit', description: 'Delete the selected box', command: act(actions.deleteSelected()) },
  { id: 'undo', keys: ['mod+z'], scope: 'editor', group: 'Edit', description: 'Undo', command: act(actions.undo()) },
  { id: 'redo', keys: ['mod+shift+z', 'ctrl+y'], scope: 'editor', group: 'Edit', description: 'Redo', command: act(actions.redo()) },
  ...arrows.map((a): KeyBinding => ({
    id: `nudge-${a.name}`,
    keys: [a.key],
    scope: 'editor',
    when: 'selection',
    group: 'Edit',
    display: '← → ↑ ↓',
    description: `Move the selected box ${NUDGE} px`,
    command: act(actions.nudgeSelected(a.dx * NUDGE, a.dy * NUDGE)),
  })),
  ...arrows.map((a): KeyBinding => ({
    id: `big-nudge-${a.name}`,
    keys: [`shift+${a.key}`],
    scope: 'editor',
    when: 'selection',
    group: 'Edit',
    display: 'Shift+arrows',
    description: `Move the selected box ${BIG_NUDGE} px`,
    command: act(actions.nudgeSelected(a.dx * BIG_NUDGE, a.dy * BIG_NUDGE)),
  })),
  ...arrows.map((a): KeyBinding => {
    const grow = a.dx + a.dy > 0;
    return {
      id: `resize-${a.name}`,
      keys: [`alt+${a.key}`, `alt+shift+${a.key}`],
      scope: 'editor',
      when: 'selection',
      group: 'Edit',
      display: grow ? 'Alt+→ / Alt+↓' : 'Alt+← / Alt+↑',
      description: `${grow ? 'Grow' : 'Shrink'} the width / height ${NUDGE} px (with Shift: ${BIG_NUDGE} px)`,
      // Right and down grow, left and up shrink, around the box centre.
      command: (key) => {
        const step = (grow ? 1 : -1) * (key.includes('shift') ? BIG_NUDGE : NUDGE);
        return act(actions.resizeSelected(a.dx ? step : 0, a.dy ? step : 0));
      },
    };
  }),

  { id: 'zoomIn', keys: ['plus', 'equal'], scope: 'editor', group: 'View', description: 'Zoom in (around the centre)', command: act(actions.zoomBy(1.25)) },
  { id: 'zoomOut', keys: ['minus'], scope: 'editor', group: 'View', description: 'Zoom out (around the centre)', command: act(actions.zoomBy(0.8)) },
  { id: 'fit', keys: ['0', 'f'], scope: 'editor', group: 'View', description: 'Fit the image to the screen', command: act(actions.fit()) },
  { id: 'pan', keys: ['space'], scope: 'editor', group: 'View', description: 'Hold and drag to pan (or drag with the middle button)', command: { ui: 'holdPan' } },
];
