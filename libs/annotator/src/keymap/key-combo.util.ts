/**
 * Key combos as written in the keymap: modifiers and one key joined by '+', lower case, e.g.
 * 'mod+shift+z', 'alt+arrowleft', 'question'. 'mod' is Ctrl or ⌘ (whichever the platform uses for
 * undo); 'ctrl' is the Control key only. Symbol keys have names, because '+' separates the parts.
 */
export interface KeyCombo {
  key: string;
  mod: boolean;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
}

/** The subset of KeyboardEvent that matching needs, so tests can pass plain objects. */
export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

const KEY_NAMES: Record<string, string> = {
  ' ': 'space',
  '+': 'plus',
  '-': 'minus',
  '=': 'equal',
  '?': 'question',
  del: 'delete',
  esc: 'escape',
  spacebar: 'space',
  left: 'arrowleft',
  right: 'arrowright',
  up: 'arrowup',
  down: 'arrowdown',
};

/** Keys typed with Shift on common layouts: whether Shift is down does not matter for them. */
const SHIFTED_SYMBOLS = new Set(['plus', 'question']);

export function parseCombo(combo: string): KeyCombo {
  const parts = combo.toLowerCase().split('+');
  const key = parts[parts.length - 1];
  const mods = new Set(parts.slice(0, -1));
  return { key, mod: mods.has('mod'), ctrl: mods.has('ctrl'), shift: mods.has('shift'), alt: mods.has('alt') };
}

/** The keymap's name for the key of an event: 'z', 'arrowleft', 'space', 'question', … */
export function eventKeyName(key: string): string {
  const lower = key.toLowerCase();
  return KEY_NAMES[lower] ?? KEY_NAMES[key] ?? lower;
}

export function comboMatches(combo: KeyCombo, input: KeyInput): boolean {
  const key = eventKeyName(input.key);
  if (key !== combo.key) return false;
  if (input.altKey !== combo.alt) return false;
  if (!SHIFTED_SYMBOLS.has(key) && input.shiftKey !== combo.shift) return false;
  if (combo.ctrl) return input.ctrlKey && !input.metaKey;
  if (combo.mod) return input.ctrlKey || input.metaKey;
  return !input.ctrlKey && !input.metaKey;
}

const DISPLAY: Record<string, string> = {
  mod: 'Ctrl/⌘',
  ctrl: 'Ctrl',
  shift: 'Shift',
  alt: 'Alt',
  arrowleft: '←',
  arrowright: '→',
  arrowup: '↑',
  arrowdown: '↓',
  plus: '+',
  minus: '−',
  equal: '=',
  question: '?',
  space: 'Space',
  escape: 'Esc',
  delete: 'Delete',
  backspace: 'Backspace',
  tab: 'Tab',
};

/** How a combo is shown to the user: 'mod+shift+z' -> 'Ctrl/⌘+Shift+Z'. */
export function formatCombo(combo: string): string {
  return combo
    .toLowerCase()
    .split('+')
    .map((part) => DISPLAY[part] ?? part.toUpperCase())
    .join('+');
}
