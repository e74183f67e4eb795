import { useEffect, useLayoutEffect, useRef } from 'react';
import type { RefObject } from 'react';
import { eventKeyName } from './key-combo.util';
import type { KeyBinding, KeyCommand } from './keymap';
import { focusPlace, isControlTarget, isTypingTarget, resolveKey } from './key-scope.util';

export interface UseKeymapOptions {
  keymap: readonly KeyBinding[];
  containerRef: RefObject<HTMLElement | null>;
  stageRef: RefObject<HTMLElement | null>;
  helpOpen: boolean;
  hasSelection: boolean;
  boxCount: number;
  /** Whether a box is held by the pointer now (moved or resized). */
  boxHeld: () => boolean;
  run: (command: KeyCommand) => void;
  /** Space was released (or the window lost focus): pan mode ends. */
  onReleasePan: () => void;
}

/** Listens on the window and runs the keymap's commands; the options are read fresh on every key. */
export function useKeymap(options: UseKeymapOptions): void {
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      const o = latest.current;
      if (event.defaultPrevented || event.isComposing || isTypingTarget(event.target)) return;
      const key = eventKeyName(event.key);
      if ((key === 'space' || key === 'enter') && isControlTarget(event.target)) return;
      const active = event.target instanceof Element ? event.target : document.activeElement;
      const focus = focusPlace(active, o.containerRef.current, o.stageRef.current);
      const resolved = resolveKey(o.keymap, event, {
        focus,
        helpOpen: o.helpOpen,
        hasSelection: o.hasSelection,
        boxCount: o.boxCount,
        boxHeld: o.boxHeld(),
      });
      if (!resolved) return;
      event.preventDefault();
      // Holding Space repeats keydown; pan mode is entered once.
      if (event.repeat && 'ui' in resolved.command && resolved.command.ui === 'holdPan') return;
      o.run(resolved.command);
    };
    const onKeyUp = (event: KeyboardEvent): void => {
      if (eventKeyName(event.key) === 'space') latest.current.onReleasePan();
    };
    const onBlur = (): void => latest.current.onReleasePan();
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('blur', onBlur);
    };
  }, []);
}
