import type { Signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { moveAmongChoices, useFirstChoiceWhenOpenedByKey, usePopupDismiss } from '../popup-dismiss.ts';

/** The least gap kept between the menu and the window's sides, and between it and its button. */
const MARGIN_PX = 8;
const GAP_PX = 4;

/** The sidebar menu that is open: opening another closes it, even from the keyboard (no press outside). */
let openMenu: Signal<boolean> | null = null;

interface RowMenuProps {
  /** Its button's and its menu's name, e.g. "Channel options for #general". */
  label: string;
  /** Whether it is open: the row opens it too, on a right click. */
  open: Signal<boolean>;
  children: ComponentChildren;
}

/**
 * A sidebar row's "⋮" and its menu, as upstream's popovers beside its left sidebar: fixed to the
 * window, so the sidebar's scrolling box does not clip it; beside the button where there is room,
 * else under it (a phone's drawer), and always inside the window. A chosen item closes it, the
 * focus back on the button (a dialog the item opens gives it back there).
 */
export function RowMenu({ label, open, children }: RowMenuProps) {
  const holder = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  usePopupDismiss(open, holder, button);
  const isOpen = open.value;
  useLayoutEffect(() => {
    const element = menu.current;
    if (!isOpen || !element || !button.current) return;
    if (openMenu && openMenu !== open) openMenu.value = false;
    openMenu = open;
    place(element, button.current.getBoundingClientRect());
    // The menu stays where it was put: the rows scrolling away under it would leave it astray.
    const scroller = holder.current?.closest('.sidebar');
    const close = () => (open.value = false);
    scroller?.addEventListener('scroll', close);
    return () => {
      scroller?.removeEventListener('scroll', close);
      if (openMenu === open) openMenu = null;
    };
  }, [isOpen]);
  const noteOpener = useFirstChoiceWhenOpenedByKey(open, menu);
  return (
    <div class="row-menu" ref={holder}>
      <button
        ref={button}
        type="button"
        class="row-menu-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        onClick={(event) => {
          noteOpener(event);
          open.value = !open.value;
        }}
      >
        ⋮
      </button>
      {isOpen && (
        <div
          ref={menu}
          class="menu row-menu-list"
          role="menu"
          aria-label={label}
          onClick={() => {
            button.current?.focus();
            open.value = false;
          }}
          onKeyDown={(event) => moveAmongChoices(event, [...event.currentTarget.querySelectorAll<HTMLElement>('[role^="menuitem"]')])}
        >
          {children}
        </div>
      )}
    </div>
  );
}

/** Puts the menu beside its button's rectangle, or under it when the window has no room beside; inside the window either way. */
function place(element: HTMLElement, anchor: DOMRect): void {
  const { width, height } = element.getBoundingClientRect();
  const beside = anchor.right + GAP_PX + width <= innerWidth - MARGIN_PX;
  const left = beside ? anchor.right + GAP_PX : anchor.right - width;
  const top = beside ? anchor.top : anchor.bottom + GAP_PX;
  element.style.left = `${Math.max(MARGIN_PX, Math.min(left, innerWidth - MARGIN_PX - width))}px`;
  element.style.top = `${Math.max(MARGIN_PX, Math.min(top, innerHeight - MARGIN_PX - height))}px`;
  element.style.maxHeight = `${innerHeight - 2 * MARGIN_PX}px`;
}

/** A right click on a sidebar row opens its menu instead of the browser's, as upstream's does. */
export function openOnRightClick(event: MouseEvent, open: Signal<boolean>): void {
  event.preventDefault();
  open.value = true;
}
