import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  onClose(): void;
  children: ComponentChildren;
  wide?: boolean;
}

/** A modal dialog on the platform's <dialog>: focus is trapped inside and Esc closes it. */
export function Dialog({ title, onClose, children, wide }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} class={`dialog ${wide ? 'wide' : ''}`} aria-label={title} onClose={onClose} onKeyDown={(event) => event.stopPropagation()}>
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
