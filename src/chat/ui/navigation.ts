import { signal } from '@preact/signals';
import { type Narrow } from '../narrow/narrow.ts';
import { type ConversationsView, narrowHash, type ParsedHash, parseNarrowHash, type SlugSource, viewHash } from '../narrow/narrow-url.ts';

/** The narrow in the address bar: the app's one source of which view is shown. */
export const route = signal<ParsedHash>(parseNarrowHash(location.hash));

addEventListener('hashchange', () => {
  route.value = parseNarrowHash(location.hash);
});

/** Shows a narrow by putting it in the URL (so Back, reload and links all work). */
export function navigate(narrow: Narrow, names: SlugSource, nearMessageId?: number): void {
  const hash = narrowHash(narrow, names, nearMessageId);
  if (hash === location.hash || (hash === '' && location.hash === '')) return;
  if (hash === '') {
    history.pushState(null, '', `${location.pathname}${location.search}`);
    route.value = parseNarrowHash('');
  } else {
    location.hash = hash;
  }
}

/** Shows the Inbox or Recent conversations. */
export function showView(view: ConversationsView): void {
  location.hash = viewHash(view);
}
