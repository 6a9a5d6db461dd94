import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  onClose(): void;
  children: ComponentChildren;
  wide?: boolean;
  /** The key that opened the dialog, which closes it again (the shortcuts' `?`). */
  closeKey?: string;
}

/** A modal dialog on the platform's <dialog>: focus is trapped inside and Esc closes it. */
export function Dialog({ title, onClose, children, wide, closeKey }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const unmounted = useRef(false);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      unmounted.current = true;
      element?.close();
    };
  }, []);
  // Esc closes through the app at once. The browser's own close event comes a task later: once
  // the dialog is gone it must not close one that a key has opened meanwhile.
  const cancel = (event: Event) => {
    event.preventDefault();
    onClose();
  };
  const closed = () => {
    if (!unmounted.current) onClose();
  };
  return (
    <dialog ref={dialog} class={`dialog ${wide ? 'wide' : ''}`} aria-label={title} onCancel={cancel} onClose={closed} onKeyDown={(event) => {
        // The app's shortcuts are not for what is typed in a dialog.
        event.stopPropagation();
        if (closeKey !== undefined && event.key === closeKey && !(event.target instanceof HTMLInputElement)) {
          event.preventDefault();
          onClose();
        }
      }}>
      <header class="dialog-header">
        <h2>{title}</h2>
        <button type="button" class="icon-button" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </header>
      <div class="dialog-body">{children}</div>
    </dialog>
  );
}
