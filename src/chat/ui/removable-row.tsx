import type { ComponentChildren } from 'preact';

interface Props {
  children: ComponentChildren;
  /** The button's words: Remove, Delete, Unmute, ... */
  action: string;
  /** The button's accessible name, which says what it takes away: "Remove the alert word tacos". */
  label: string;
  /** Gone for everyone (a realm's linkifier), not only from my list. */
  danger?: boolean;
  onRemove(): void;
}

/** One row of a settings list: what it is, and the one button that takes it away. */
export function RemovableRow({ children, action, label, danger, onRemove }: Props) {
  return (
    <li class="admin-row">
      <div class="admin-row-text">{children}</div>
      <button type="button" class={danger ? 'danger small' : 'small'} aria-label={label} onClick={onRemove}>
        {action}
      </button>
    </li>
  );
}
