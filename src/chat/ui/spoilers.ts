import { useEffect } from 'preact/hooks';

/** Opens or closes the spoiler whose header was clicked or pressed; says whether there was one. */
function toggleSpoiler(target: EventTarget | null): boolean {
  const header = target instanceof Element ? target.closest<HTMLElement>('.rendered .spoiler-header') : null;
  const block = header?.closest('.spoiler-block');
  if (!header || !block) return false;
  const open = block.classList.toggle('spoiler-open');
  header.setAttribute('aria-expanded', String(open));
  block.querySelector('.spoiler-content')?.setAttribute('aria-hidden', String(!open));
  return true;
}

/**
 * Spoilers as upstream's web app shows them: collapsed under their header, opened and closed by
 * a click on it, or Enter or Space once it has the focus (`messageHtml` makes headers buttons).
 * One listener for the page: messages, previews and edit history all hold rendered HTML.
 */
export function useSpoilerToggles(): void {
  useEffect(() => {
    const onClick = (event: MouseEvent): void => {
      // A link in the header still opens; a click elsewhere on it toggles.
      if (event.target instanceof Element && event.target.closest('a')) return;
      if (toggleSpoiler(event.target)) event.stopPropagation();
    };
    const onKey = (event: KeyboardEvent): void => {
      if ((event.key === 'Enter' || event.key === ' ') && toggleSpoiler(event.target)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    // Capture: before a message row's own click selects it and the shortcuts read the key.
    addEventListener('click', onClick, true);
    addEventListener('keydown', onKey, true);
    return () => {
      removeEventListener('click', onClick, true);
      removeEventListener('keydown', onKey, true);
    };
  }, []);
}
