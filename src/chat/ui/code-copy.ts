import { useEffect } from 'preact/hooks';
import { notify } from './notices.ts';

/** Copies the code block whose copy button was pressed (`messageHtml` adds the buttons); says whether it was one. */
function copyCode(target: EventTarget | null): boolean {
  const button = target instanceof Element ? target.closest<HTMLButtonElement>('.rendered .copy-code') : null;
  const code = button?.closest('.codehilite')?.querySelector('pre')?.textContent;
  if (!button || code === undefined || code === null) return false;
  // Without a secure context (plain http from a LAN address) the browser has no clipboard API.
  const copied = navigator.clipboard ? navigator.clipboard.writeText(code) : Promise.reject(new Error('this page may not use the clipboard'));
  copied.then(
    () => notify('Code copied to the clipboard.'),
    (error: unknown) => notify(`Could not copy the code: ${error instanceof Error ? error.message : String(error)}`, 'error'),
  );
  return true;
}

/**
 * Upstream's copy button on code blocks: one listener for the page, since messages, previews and
 * edit history all hold rendered HTML.
 */
export function useCodeCopyButtons(): void {
  useEffect(() => {
    const onClick = (event: MouseEvent): void => {
      // Capture: before a message row's own click selects it.
      if (copyCode(event.target)) event.stopPropagation();
    };
    addEventListener('click', onClick, true);
    return () => removeEventListener('click', onClick, true);
  }, []);
}
