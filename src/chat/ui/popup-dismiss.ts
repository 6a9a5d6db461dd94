import type { Signal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * An open menu closes, as upstream's popovers do, when the person presses anywhere outside it
 * (another message's menu included), tabs out of it, or presses Escape wherever the focus is.
 * That Escape does nothing else (no view closed, no selection cleared), and a focus that was
 * inside the menu goes back to its button: `toggle`, else the `[aria-haspopup]` in `holder`.
 */
export function usePopupDismiss(open: Signal<boolean>, holder: RefObject<HTMLElement>, toggle?: RefObject<HTMLElement>): void {
  const isOpen = open.value;
  // Before the paint: a key pressed right after the menu opened must find it listening.
  useLayoutEffect(() => {
    if (!isOpen) return;
    const outside = (event: PointerEvent) => {
      if (!holder.current?.contains(event.target as Node)) open.value = false;
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      const element = holder.current;
      const focusInside = element?.contains(document.activeElement) ?? false;
      open.value = false;
      if (focusInside) (toggle?.current ?? element?.querySelector<HTMLElement>('[aria-haspopup]'))?.focus();
    };
    // The focus gone to something outside (Tab, a shortcut); none (a press on nothing focusable) is the press's to judge.
    const focusLeft = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (next && !holder.current?.contains(next)) open.value = false;
    };
    const element = holder.current;
    document.addEventListener('pointerdown', outside);
    element?.addEventListener('focusout', focusLeft);
    // Capturing, on the window: before the keyboard shortcuts' own Escape.
    addEventListener('keydown', escape, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      element?.removeEventListener('focusout', focusLeft);
      removeEventListener('keydown', escape, true);
    };
  }, [isOpen]);
}

/** ArrowDown and ArrowUp move the focus around a popup's choices (the last wraps to the first). */
export function moveAmongChoices(event: KeyboardEvent, choices: readonly HTMLElement[]): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const index = choices.indexOf(event.target as HTMLElement);
  if (index < 0) return;
  event.preventDefault();
  choices[(index + (event.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length].focus();
}

/**
 * A menu its button opened from the keyboard (a click with no pointer behind it: `detail` 0)
 * gives the focus to its first choice, so the arrow keys go on from there, as a menu button's
 * does. Returns what the button's click calls first. Declared after any hook that places the
 * menu, so that the focus finds it in place.
 */
export function useFirstChoiceWhenOpenedByKey(open: Signal<boolean>, menu: RefObject<HTMLElement>): (event: MouseEvent) => void {
  const byKey = useRef(false);
  const isOpen = open.value;
  useLayoutEffect(() => {
    if (isOpen && byKey.current) menu.current?.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
    byKey.current = false;
  }, [isOpen]);
  return (event) => {
    byKey.current = event.detail === 0;
  };
}
