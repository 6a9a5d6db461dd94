import type { Signal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useLayoutEffect } from 'preact/hooks';

/** The least gap kept between a menu and the window's sides. */
const MARGIN_PX = 8;

/**
 * Shifts an open menu sideways just enough to stay inside the window: a menu hung from a button
 * that a narrow screen wrapped to the left (a phone's topic header) would run off the edge.
 */
export function useKeepInView(open: Signal<boolean>, menu: RefObject<HTMLElement>): void {
  const isOpen = open.value;
  useLayoutEffect(() => {
    const element = menu.current;
    if (!isOpen || !element) return;
    element.style.transform = '';
    const { left, right } = element.getBoundingClientRect();
    const shift = left < MARGIN_PX ? MARGIN_PX - left : right > innerWidth - MARGIN_PX ? innerWidth - MARGIN_PX - right : 0;
    if (shift !== 0) element.style.transform = `translateX(${shift}px)`;
  }, [isOpen]);
}
