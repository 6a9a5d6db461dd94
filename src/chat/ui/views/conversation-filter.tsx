import type { Signal } from '@preact/signals';

/** The Inbox's and Recent conversations' filter by name, as upstream's views have it. */
export function ConversationFilter({ text }: { text: Signal<string> }) {
  return (
    <input
      type="search"
      class="inbox-filter"
      aria-label="Filter conversations"
      placeholder="Filter conversations"
      value={text.value}
      onInput={(event) => (text.value = event.currentTarget.value)}
    />
  );
}
