import type { Signal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useLayoutEffect } from 'preact/hooks';

/**
 * An open menu closes, as upstream's popovers do, when the person presses anywhere outside it
 * (another message's menu included) or presses Escape wherever the focus is. That Escape does
 * nothing else (no view closed, no selection cleared), and a focus that was inside the menu
 * goes back to its button (`[aria-haspopup]` in `holder`).
 */
export function usePopupDismiss(open: Signal<boolean>, holder: RefObject<HTMLElement>): void {
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
      if (focusInside) element?.querySelector<HTMLElement>('[aria-haspopup]')?.focus();
    };
    document.addEventListener('pointerdown', outside);
    // Capturing, on the window: before the keyboard shortcuts' own Escape.
    addEventListener('keydown', escape, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      removeEventListener('keydown', escape, true);
    };
  }, [isOpen]);
}
