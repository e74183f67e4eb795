import { comboMatches, eventKeyName, formatCombo, parseCombo } from '../key-combo.util';
import type { KeyInput } from '../key-combo.util';

const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('key combos', () => {
  it('names keys, symbols included', () => {
    expect(eventKeyName('ArrowLeft')).toBe('arrowleft');
    expect(eventKeyName(' ')).toBe('space');
    expect(eventKeyName('+')).toBe('plus');
    expect(eventKeyName('?')).toBe('question');
    expect(eventKeyName('Z')).toBe('z');
    expect(eventKeyName('Esc')).toBe('escape');
  });

  it('requires exactly the modifiers of the combo', () => {
    expect(comboMatches(parseCombo('mod+z'), key('z', { ctrlKey: true }))).toBe(true);
    expect(comboMatches(parseCombo('mod+z'), key('z', { metaKey: true }))).toBe(true);
    expect(comboMatches(parseCombo('mod+z'), key('Z', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(comboMatches(parseCombo('mod+shift+z'), key('Z', { metaKey: true, shiftKey: true }))).toBe(true);
    expect(comboMatches(parseCombo('z'), key('z', { ctrlKey: true }))).toBe(false);
    expect(comboMatches(parseCombo('ctrl+y'), key('y', { metaKey: true }))).toBe(false);
    expect(comboMatches(parseCombo('alt+arrowleft'), key('ArrowLeft', { altKey: true }))).toBe(true);
    expect(comboMatches(parseCombo('arrowleft'), key('ArrowLeft', { altKey: true }))).toBe(false);
  });

  it('ignores Shift for symbols typed with it (? and +)', () => {
    expect(comboMatches(parseCombo('question'), key('?', { shiftKey: true }))).toBe(true);
    expect(comboMatches(parseCombo('plus'), key('+', { shiftKey: true }))).toBe(true);
    expect(comboMatches(parseCombo('plus'), key('+'))).toBe(true);
  });

  it('takes a digit typed with or without Shift, and on its digit-row key whatever the layout types there', () => {
    // AZERTY: Shift+Digit2 types 2, Digit2 alone types é.
    expect(comboMatches(parseCombo('2'), key('2', { code: 'Digit2', shiftKey: true }))).toBe(true);
    expect(comboMatches(parseCombo('2'), key('é', { code: 'Digit2' }))).toBe(false);
    expect(comboMatches(parseCombo('2'), key('é', { code: 'Digit2' }), 'digitRow')).toBe(true);
    expect(comboMatches(parseCombo('0'), key('à', { code: 'Digit0' }), 'digitRow')).toBe(true);
    expect(comboMatches(parseCombo('2'), key('é', { code: 'Digit3' }), 'digitRow')).toBe(false);
    expect(comboMatches(parseCombo('2'), key('2', { code: 'Numpad2' }))).toBe(true);
    // Only digits go by the digit row; a NumLock-off numpad key is what it says (an arrow), never a digit.
    expect(comboMatches(parseCombo('e'), key('é', { code: 'KeyE' }), 'digitRow')).toBe(false);
    expect(comboMatches(parseCombo('4'), key('ArrowLeft', { code: 'Numpad4' }), 'digitRow')).toBe(false);
    // Ctrl+digit and AltGr+digit (Ctrl+Alt) stay the browser's and the layout's.
    expect(comboMatches(parseCombo('2'), key('2', { code: 'Digit2', ctrlKey: true }))).toBe(false);
    expect(comboMatches(parseCombo('2'), key('~', { code: 'Digit2', ctrlKey: true, altKey: true }), 'digitRow')).toBe(false);
  });

  it('formats combos for the keymap help', () => {
    expect(formatCombo('mod+shift+z')).toBe('Ctrl/⌘+Shift+Z');
    expect(formatCombo('alt+arrowright')).toBe('Alt+→');
  });
});
