import { untracked, useSignal, useSignalEffect } from '@preact/signals';
import { useMemo, useRef } from 'preact/hooks';
import { useChat } from '../chat-context.ts';
import { termsQuery } from '../../narrow/narrow.ts';
import { slugNames, termNames } from '../slug-names.ts';
import { navigate, route } from '../navigation.ts';
import { useTypeahead } from '../compose/typeahead.tsx';
import { searchSuggestions } from './search-suggestions.ts';
import { useTopicsOnDemand } from './topics-on-demand.ts';

/** Focuses the search box from anywhere (the `/` key). */
export const searchFocus = { request: () => {} };

/** Upstream's search syntax (`channel:NAME topic:NAME sender:EMAIL is:starred has:link` and words) as a search narrow; a linked narrow of other operators shows in it too. */
export function SearchBox() {
  const { session } = useChat();
  const query = useSignal('');
  const input = useRef<HTMLInputElement>(null);
  searchFocus.request = () => input.current?.focus();
  const realm = session.realm;
  // Topics arrive after the keystroke that asked for them: the list is asked again then.
  const refreshLater = useRef(() => {});
  const topics = useTopicsOnDemand(session, () => refreshLater.current());
  const source = useMemo(
    () =>
      searchSuggestions({
        users: () => [...realm.users.value.values()].filter((user) => user.is_active),
        channels: () => [...realm.channels.value.values()],
        myEmail: () => realm.meUser.value?.email ?? '',
        topics,
      }),
    [realm, topics],
  );
  const typeahead = useTypeahead(
    input,
    source,
    (text, taken) => {
      query.value = text;
      if (taken.searches) search();
    },
    // Upstream's list is long (its filters, then channels and people); with nothing typed none is
    // chosen, so Enter does what it does without the list.
    { maxShown: 20, chooseFirst: (text) => text.trim() !== '' },
  );
  refreshLater.current = typeahead.refresh;
  /** What the box shows for the view: a search's query (upstream shows the narrow's terms), else nothing. */
  const viewQuery = (): string => {
    const narrow = route.value.narrow;
    return narrow.kind === 'search' ? narrow.query : narrow.kind === 'terms' ? termsQuery(narrow.terms, termNames(realm)) : '';
  };
  // A new view drops what was typed and not searched for, and the list (as upstream's narrowing
  // closes its search); only a new view does, not a change of the users or channels its terms name.
  useSignalEffect(() => {
    route.value;
    untracked(() => {
      query.value = viewQuery();
      typeahead.close();
    });
  });
  function search(): void {
    // Spaces typed twice between terms (a term taken with its space, then a space typed) are one;
    // a quoted topic keeps its own.
    const text = query.value
      .split('"')
      .map((part, index) => (index % 2 === 1 ? part : part.replace(/\s+/g, ' ')))
      .join('"')
      .trim();
    navigate(text ? { kind: 'search', query: text } : { kind: 'all' }, slugNames(session));
    input.current?.blur();
  }
  return (
    <form
      class="search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        search();
      }}
    >
      <input
        ref={input}
        type="search"
        aria-label="Search"
        placeholder="Search"
        value={query.value}
        {...typeahead.fieldProps}
        onFocus={() => typeahead.refresh()}
        onInput={(event) => {
          query.value = event.currentTarget.value;
          typeahead.refresh();
        }}
        onKeyDown={(event) => {
          // Esc leaves the search, as upstream's: the list closes, the box shows the view's search
          // again (not emptied, as the browser empties a search field).
          if (event.key === 'Escape') {
            event.preventDefault();
            query.value = viewQuery();
            input.current?.blur();
            return;
          }
          typeahead.onKeyDown(event);
        }}
      />
      {typeahead.list}
    </form>
  );
}
