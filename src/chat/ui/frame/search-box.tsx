import { useSignal, useSignalEffect } from '@preact/signals';
import { useMemo, useRef } from 'preact/hooks';
import { useChat } from '../chat-context.ts';
import { termsQuery } from '../../narrow/narrow.ts';
import { slugNames, termNames } from '../slug-names.ts';
import { navigate, route } from '../navigation.ts';
import { useTypeahead } from '../compose/typeahead.tsx';
import { searchSuggestions } from './search-suggestions.ts';

/** Focuses the search box from anywhere (the `/` key). */
export const searchFocus = { request: () => {} };

/** Upstream's search syntax (`channel:NAME topic:NAME sender:EMAIL is:starred has:link` and words) as a search narrow; a linked narrow of other operators shows in it too. */
export function SearchBox() {
  const { session } = useChat();
  const query = useSignal('');
  const input = useRef<HTMLInputElement>(null);
  searchFocus.request = () => input.current?.focus();
  const realm = session.realm;
  const source = useMemo(
    () =>
      searchSuggestions({
        users: () => [...realm.users.value.values()].filter((user) => user.is_active),
        channels: () => [...realm.channels.value.values()],
      }),
    [realm],
  );
  const typeahead = useTypeahead(input, source, (text) => (query.value = text));
  useSignalEffect(() => {
    const narrow = route.value.narrow;
    query.value = narrow.kind === 'search' ? narrow.query : narrow.kind === 'terms' ? termsQuery(narrow.terms, termNames(session.realm)) : '';
  });
  return (
    <form
      class="search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        const text = query.value.trim();
        navigate(text ? { kind: 'search', query: text } : { kind: 'all' }, slugNames(session));
        input.current?.blur();
      }}
    >
      <input
        ref={input}
        type="search"
        aria-label="Search"
        placeholder="Search"
        value={query.value}
        {...typeahead.fieldProps}
        onInput={(event) => {
          query.value = event.currentTarget.value;
          typeahead.refresh();
        }}
        onKeyDown={(event) => {
          if (typeahead.onKeyDown(event)) return;
          if (event.key === 'Escape') input.current?.blur();
        }}
      />
      {typeahead.list}
    </form>
  );
}
