import { actions } from '../../store/editor.actions';
import { KEYMAP } from '../keymap';
import { EDITOR_KEYS_HERE, focusPlace, isControlTarget, isTypingTarget, resolveKey } from '../key-scope.util';
import type { KeyContext } from '../key-scope.util';

const input = (key: string, shiftKey = false) => ({ key, shiftKey, ctrlKey: false, metaKey: false, altKey: false });
const ctx = (over: Partial<KeyContext> = {}): KeyContext => ({ focus: 'editor', helpOpen: false, hasSelection: false, boxCount: 2, ...over });

describe('resolveKey', () => {
  it('fires nothing while another widget has the focus', () => {
    expect(resolveKey(KEYMAP, input('Delete'), ctx({ focus: 'outside', hasSelection: true }))).toBeNull();
    expect(resolveKey(KEYMAP, input('?', true), ctx({ focus: 'outside' }))).toBeNull();
  });

  it('leaves selection keys to the browser when nothing is selected', () => {
    expect(resolveKey(KEYMAP, input('ArrowDown'), ctx())).toBeNull();
    expect(resolveKey(KEYMAP, input('Backspace'), ctx())).toBeNull();
    expect(resolveKey(KEYMAP, input('ArrowDown'), ctx({ hasSelection: true }))?.binding.id).toBe('nudge-down');
  });

  it('takes Tab only on the stage and only when there are boxes', () => {
    expect(resolveKey(KEYMAP, input('Tab'), ctx())).toBeNull();
    expect(resolveKey(KEYMAP, input('Tab'), ctx({ focus: 'stage' }))?.binding.id).toBe('nextBox');
    expect(resolveKey(KEYMAP, input('Tab'), ctx({ focus: 'stage', boxCount: 0 }))).toBeNull();
  });

  it('lets the open help take Escape and ? first', () => {
    expect(resolveKey(KEYMAP, input('Escape'), ctx({ helpOpen: true, hasSelection: true }))?.command).toEqual({ ui: 'closeHelp' });
    expect(resolveKey(KEYMAP, input('?', true), ctx({ helpOpen: true }))?.command).toEqual({ ui: 'closeHelp' });
    expect(resolveKey(KEYMAP, input('?', true), ctx())?.command).toEqual({ ui: 'toggleHelp' });
    expect(resolveKey(KEYMAP, input('Escape'), ctx({ hasSelection: true }))?.binding.id).toBe('deselect');
    expect(resolveKey(KEYMAP, input('Escape'), ctx({ focus: 'stage' }))?.command).toEqual({ ui: 'leaveStage' });
  });

  it('runs no edit key while a box is held by the pointer, only the view and help keys', () => {
    const held = ctx({ hasSelection: true, boxHeld: true });
    for (const key of ['Delete', 'Backspace', 'ArrowLeft', 'n', '2', 'Escape']) expect(resolveKey(KEYMAP, input(key), held)).toBeNull();
    expect(resolveKey(KEYMAP, { ...input('z'), ctrlKey: true }, held)).toBeNull();
    expect(resolveKey(KEYMAP, input('='), held)?.binding.id).toBe('zoomIn');
    expect(resolveKey(KEYMAP, input('?', true), held)?.binding.id).toBe('toggleHelp');
  });

  it('runs no edit key while the keymap help covers the boxes, only the view and help keys', () => {
    const open = ctx({ hasSelection: true, helpOpen: true });
    for (const key of ['Delete', 'ArrowLeft', 'n', '2']) expect(resolveKey(KEYMAP, input(key), open)).toBeNull();
    expect(resolveKey(KEYMAP, input('Escape'), open)?.command).toEqual({ ui: 'closeHelp' });
    expect(resolveKey(KEYMAP, input('='), open)?.binding.id).toBe('zoomIn');
  });

  it('picks labels 1–9 and fits with 0 on an AZERTY keyboard, Shift or not; its unshifted 6 (-) still zooms out', () => {
    const azerty = (key: string, code: string, shiftKey = false) => ({ ...input(key, shiftKey), code });
    expect(resolveKey(KEYMAP, azerty('é', 'Digit2'), ctx())?.command).toEqual({ action: actions.pickLabelNumber(2) });
    expect(resolveKey(KEYMAP, azerty('2', 'Digit2', true), ctx())?.command).toEqual({ action: actions.pickLabelNumber(2) });
    expect(resolveKey(KEYMAP, azerty('&', 'Digit1'), ctx({ hasSelection: true }))?.command).toEqual({ action: actions.pickLabelNumber(1) });
    expect(resolveKey(KEYMAP, azerty('ç', 'Digit9'), ctx())?.command).toEqual({ action: actions.pickLabelNumber(9) });
    expect(resolveKey(KEYMAP, azerty('à', 'Digit0'), ctx())?.binding.id).toBe('fit');
    expect(resolveKey(KEYMAP, azerty('0', 'Digit0', true), ctx())?.binding.id).toBe('fit');
    expect(resolveKey(KEYMAP, azerty('-', 'Digit6'), ctx())?.binding.id).toBe('zoomOut');
    expect(resolveKey(KEYMAP, azerty('6', 'Digit6', true), ctx())?.command).toEqual({ action: actions.pickLabelNumber(6) });
    // QWERTY and the numpad as before.
    expect(resolveKey(KEYMAP, azerty('3', 'Digit3'), ctx())?.command).toEqual({ action: actions.pickLabelNumber(3) });
    expect(resolveKey(KEYMAP, azerty('3', 'Numpad3'), ctx())?.command).toEqual({ action: actions.pickLabelNumber(3) });
    expect(resolveKey(KEYMAP, azerty('ArrowLeft', 'Numpad4'), ctx())).toBeNull();
  });

  it('has no two bindings in one scope that a key press could confuse', () => {
    const seen = new Map<string, string>();
    for (const b of KEYMAP) {
      for (const k of b.keys) {
        const id = `${b.scope}|${b.when ?? ''}|${k}`;
        expect(seen.get(id)).toBeUndefined();
        seen.set(id, b.id);
      }
    }
  });
});

describe('focus and typing targets', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('treats inputs, textareas, selects and contenteditable as typing', () => {
    document.body.innerHTML = `
      <input id="i"><textarea id="t"></textarea><select id="s"></select>
      <div contenteditable="true"><span id="c">x</span></div><button id="b">b</button>`;
    for (const id of ['i', 't', 's']) expect(isTypingTarget(document.getElementById(id))).toBe(true);
    // jsdom lacks isContentEditable; the closest() check still finds the editable ancestor.
    expect(isTypingTarget(document.getElementById('c'))).toBe(true);
    expect(isTypingTarget(document.getElementById('b'))).toBe(false);
    expect(isControlTarget(document.getElementById('b'))).toBe(true);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('places the focus on the stage, in the editor (or on the body) or outside', () => {
    document.body.innerHTML = `<div id="root"><div id="stage"><canvas id="cv"></canvas></div><button id="in"></button></div><button id="out"></button>`;
    const root = document.getElementById('root');
    const stage = document.getElementById('stage');
    expect(focusPlace(document.getElementById('cv'), root, stage)).toBe('stage');
    expect(focusPlace(document.getElementById('in'), root, stage)).toBe('editor');
    expect(focusPlace(document.body, root, stage)).toBe('editor');
    expect(focusPlace(null, root, stage)).toBe('editor');
    expect(focusPlace(document.getElementById('out'), root, stage)).toBe('outside');
  });

  it('counts a heading outside the annotator that the page marked for the editor\'s keys as in the editor', () => {
    document.body.innerHTML = `<div id="root"><div id="stage"></div></div><h1 id="marked" tabindex="-1">Your task</h1><h1 id="other" tabindex="-1">Other</h1>`;
    const marked = document.getElementById('marked') as HTMLElement;
    for (const [name, value] of Object.entries(EDITOR_KEYS_HERE)) marked.setAttribute(name, value);
    const root = document.getElementById('root');
    const stage = document.getElementById('stage');
    expect(focusPlace(marked, root, stage)).toBe('editor');
    expect(focusPlace(document.getElementById('other'), root, stage)).toBe('outside');
  });
});
