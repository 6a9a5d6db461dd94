import type { ComponentChildren } from 'preact';
import { Dialog } from '../../dialog.tsx';

interface Props {
  title: string;
  /** The confirming button's words, e.g. "Delete". */
  action: string;
  onConfirm(): void;
  onClose(): void;
  children: ComponentChildren;
}

/** "Are you sure?" before something that cannot be undone. */
export function ConfirmDialog({ title, action, onConfirm, onClose, children }: Props) {
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
          onClick={() => {
            onConfirm();
            onClose();
          }}
        >
          {action}
        </button>
      </div>
    </Dialog>
  );
}
