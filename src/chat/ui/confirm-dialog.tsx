import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { Dialog } from './dialog.tsx';

interface Props {
  title: string;
  /** The confirming button's words, e.g. "Delete". */
  action: string;
  /**
   * Does it. A promise keeps the dialog open, its button disabled, until it settles: closed on
   * true, left open on false (the refusal is told, the person may cancel or try again).
   */
  onConfirm(): void | Promise<boolean>;
  onClose(): void;
  children: ComponentChildren;
}

/** "Are you sure?" before something that cannot be undone. */
export function ConfirmDialog({ title, action, onConfirm, onClose, children }: Props) {
  const busy = useSignal(false);
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <div class="form-buttons">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          class="primary danger"
          disabled={busy.value}
          onClick={async () => {
            busy.value = true;
            const done = await onConfirm();
            busy.value = false;
            if (done !== false) onClose();
          }}
        >
          {action}
        </button>
      </div>
    </Dialog>
  );
}
