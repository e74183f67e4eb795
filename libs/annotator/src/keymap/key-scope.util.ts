import { comboMatches, parseCombo } from './key-combo.util';
import type { KeyInput } from './key-combo.util';
import type { KeyBinding, KeyCommand, KeyScope } from './keymap';

/** Where the keyboard focus is, seen from one annotator. */
export type FocusPlace = 'stage' | 'editor' | 'outside';

export interface KeyContext {
  focus: FocusPlace;
  helpOpen: boolean;
  hasSelection: boolean;
  boxCount: number;
  /** A box is held by the pointer (moved or resized): only the view and help keys run. */
  boxHeld?: boolean;
}

export interface ResolvedKey {
  binding: KeyBinding;
  command: KeyCommand;
}

/**
 * Edits wait while a box is held by the pointer and while the keymap help covers the boxes. A held box's
 * Konva node stays bound to its index: a deletion gave the held node the next box, and its release moved
 * that one; an undo was cleared by the release's move. Under the help, a key changed boxes the worker
 * could not see. Zoom, pan and help change no box.
 */
const RUN_WHILE_EDITS_WAIT: ReadonlySet<KeyBinding['group']> = new Set<KeyBinding['group']>(['View', 'Help']);
const editsWait = (ctx: KeyContext): boolean => ctx.boxHeld === true || ctx.helpOpen;

function activeScopes(ctx: KeyContext): KeyScope[] {
  const scopes: KeyScope[] = [];
  if (ctx.focus === 'outside') return scopes;
  if (ctx.helpOpen) scopes.push('help');
  if (ctx.focus === 'stage') scopes.push('stage');
  scopes.push('editor');
  return scopes;
}

/**
 * The binding a key press triggers in this context, most specific scope first; null leaves it to the
 * browser. The character typed is looked up first, then the digit-row key it was typed on: an AZERTY
 * worker's unshifted 2 (é) picks label 2, while its unshifted 6 (-) still zooms out as '-' does everywhere.
 */
export function resolveKey(keymap: readonly KeyBinding[], input: KeyInput, ctx: KeyContext): ResolvedKey | null {
  for (const match of ['key', 'digitRow'] as const) {
    for (const scope of activeScopes(ctx)) {
      for (const binding of keymap) {
        if (binding.scope !== scope) continue;
        if (editsWait(ctx) && !RUN_WHILE_EDITS_WAIT.has(binding.group)) continue;
        if (binding.when === 'selection' && !ctx.hasSelection) continue;
        if (binding.when === 'noSelection' && ctx.hasSelection) continue;
        if (binding.when === 'boxes' && ctx.boxCount === 0) continue;
        const combo = binding.keys.find((k) => comboMatches(parseCombo(k), input, match));
        if (combo === undefined) continue;
        const command = typeof binding.command === 'function' ? binding.command(combo) : binding.command;
        return { binding, command };
      }
    }
  }
  return null;
}

/** Text fields own the keyboard: no editor key fires while one has focus. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[contenteditable=""],[contenteditable="true"]')) return true;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Buttons and links act on Space and Enter themselves. */
export function isControlTarget(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('button,a[href],[role="button"]') !== null;
}

/**
 * Spread on an element outside the annotator that the page focuses only so that a screen reader says it
 * (the task's heading after a task change): the editor's keys work while it has the focus, as on the page
 * body. Without it, a worker who moved to the next task by keyboard had no N, digits or arrows until they
 * tabbed back to the image.
 */
export const EDITOR_KEYS_HERE = { 'data-annotator-keys': '' } as const;

const EDITOR_KEYS_SELECTOR = `[${Object.keys(EDITOR_KEYS_HERE)[0]}]`;

/**
 * Which scope the focus puts us in: on the stage, elsewhere inside this annotator (or on the page
 * body, so keys work before anything was clicked), or outside it (another widget has the keyboard).
 */
export function focusPlace(active: Element | null, container: Element | null, stage: Element | null): FocusPlace {
  if (stage && active && stage.contains(active)) return 'stage';
  if (!active || active === active.ownerDocument.body || active === active.ownerDocument.documentElement) return 'editor';
  if (container && container.contains(active)) return 'editor';
  if (active.closest(EDITOR_KEYS_SELECTOR)) return 'editor';
  return 'outside';
}
