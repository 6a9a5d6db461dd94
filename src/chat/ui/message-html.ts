import DOMPurify from 'dompurify';
import { emojiCharacter } from './emoji.ts';

/** How a global time in a message reads: in the browser's own zone and language. */
const LOCAL_TIME = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

/** Rendered message HTML, sanitised once per distinct content (the engine escapes; we do not rely on it). */
const cache = new Map<string, string>();
const CACHE_LIMIT = 5000;

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node instanceof HTMLAnchorElement) {
    let href = node.getAttribute('href') ?? '';
    // The server writes links to channels, topics and messages as `/#narrow/...` (upstream's
    // form): they are the app's own views, so they become this page's hash.
    if (href.startsWith('/#')) {
      href = href.slice(1);
      node.setAttribute('href', href);
    }
    // Links into the app stay in the tab; everything else opens beside it.
    if (!href.startsWith('#')) {
      node.target = '_blank';
      node.rel = 'noopener noreferrer';
    }
  }
});

/**
 * The message's HTML made safe and ready to show: sanitised, Unicode emoji spans
 * (`<span class="emoji emoji-1f44d">:+1:</span>`) given their character, and server-relative
 * URLs resolved against the server the app talks to.
 */
export function messageHtml(html: string, server: string): string {
  const key = `${server}\n${html}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const fragment = DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
  for (const span of fragment.querySelectorAll<HTMLElement>('span.emoji')) {
    const code = [...span.classList].find((name) => name.startsWith('emoji-'))?.slice('emoji-'.length);
    if (code && /^[0-9a-f-]+$/.test(code)) span.textContent = emojiCharacter(code);
  }
  // Upstream's global times (`<time:...>`) show in the reader's own clock, the instant kept as the title.
  for (const time of fragment.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
    const instant = new Date(time.dateTime);
    if (Number.isNaN(instant.getTime())) continue;
    time.title = time.dateTime;
    time.textContent = LOCAL_TIME.format(instant);
  }
  // A code block gets upstream's copy button (`code-copy.ts` answers its click).
  for (const block of fragment.querySelectorAll<HTMLElement>('.codehilite')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-code';
    button.setAttribute('aria-label', 'Copy code');
    button.title = 'Copy code';
    button.textContent = 'Copy';
    block.prepend(button);
  }
  // A spoiler's header opens it (`spoilers.ts`): a button for the keyboard and screen readers.
  for (const header of fragment.querySelectorAll<HTMLElement>('.spoiler-header')) {
    header.setAttribute('role', 'button');
    header.setAttribute('tabindex', '0');
    header.setAttribute('aria-expanded', 'false');
  }
  if (server) {
    for (const element of fragment.querySelectorAll<HTMLElement>('[src^="/"], [href^="/"]')) {
      for (const attribute of ['src', 'href']) {
        const value = element.getAttribute(attribute);
        if (value?.startsWith('/') && !value.startsWith('//')) element.setAttribute(attribute, `${server}${value}`);
      }
    }
  }
  const holder = document.createElement('div');
  holder.append(fragment);
  const safe = holder.innerHTML;
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, safe);
  return safe;
}
