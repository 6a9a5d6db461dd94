import { signal } from '@preact/signals';
import { Dialog } from '../dialog.tsx';

interface ShownImage {
  src: string;
  href: string;
  title: string;
}

/** The image the lightbox shows; null while it is closed. */
const shownImage = signal<ShownImage | null>(null);

/**
 * A click on an inline image preview (`.message_inline_image a`) opens the lightbox; a click
 * with a modifier, or on anything else, goes on as the browser would (a new tab for the link).
 * Meant as the `onClick` of rendered message HTML.
 */
export function openInlineImage(event: MouseEvent): void {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('.message_inline_image a') : null;
  if (!link) return;
  event.preventDefault();
  show(link);
}

/** `v` (upstream's View image): the first image preview in the message's element, if it has one. */
export function showFirstImage(message: Element): boolean {
  const link = message.querySelector<HTMLAnchorElement>('.message_inline_image a');
  if (link) show(link);
  return link !== null;
}

function show(link: HTMLAnchorElement): void {
  const image = link.querySelector('img');
  shownImage.value = { src: image?.src ?? link.href, href: link.href, title: link.title };
}

/** The image at full size in a modal dialog: Esc or Close shuts it, and a link opens the file itself. */
export function ImageLightbox() {
  const shown = shownImage.value;
  if (!shown) return null;
  return (
    <Dialog title={shown.title || 'Image'} wide onClose={() => (shownImage.value = null)}>
      <figure class="lightbox">
        <img src={shown.src} alt={shown.title} />
        <figcaption>
          <a href={shown.href} target="_blank" rel="noopener noreferrer">
            Open in a new tab
          </a>
        </figcaption>
      </figure>
    </Dialog>
  );
}
