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
  /** The physical key ('Digit2'), whatever the layout types on it; absent in some synthetic events. */
  code?: string;
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

const DIGIT = /^[0-9]$/;

/**
 * How a key press is compared with a combo's key. 'key': the character typed (event.key), for every
 * combo. 'digitRow': the physical key (event.code Digit0–9), for digit combos only, because on layouts
 * such as AZERTY the digit row types & é " … and the digit only with Shift. Numpad keys are not matched
 * by code: with NumLock off they are arrows, Home and End (event.key says so); with it on they type digits.
 */
export type KeyMatch = 'key' | 'digitRow';

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

export function comboMatches(combo: KeyCombo, input: KeyInput, match: KeyMatch = 'key'): boolean {
  const digit = DIGIT.test(combo.key);
  if (match === 'digitRow' ? !digit || input.code !== `Digit${combo.key}` : eventKeyName(input.key) !== combo.key) return false;
  if (input.altKey !== combo.alt) return false;
  // Digits: Shift types them on some layouts (AZERTY) and not on others, so it does not matter either.
  if (!digit && !SHIFTED_SYMBOLS.has(combo.key) && input.shiftKey !== combo.shift) return false;
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
