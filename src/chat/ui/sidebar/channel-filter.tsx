import type { Signal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { Subscription } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import { navigate } from '../navigation.ts';
import { slugNames } from '../slug-names.ts';
import type { SidebarChannelGroup } from './sidebar-channel-order.ts';

/** Focuses the Filter channels box from anywhere (upstream's `q` key). */
export const channelFilterFocus = { request: () => {} };

/** The groups' channels whose name holds every word of `text` (case-insensitive); groups left empty go. */
export function channelsMatching(groups: SidebarChannelGroup[], text: string): SidebarChannelGroup[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return groups;
  return groups
    .map((group) => ({ ...group, channels: group.channels.filter((sub) => words.every((word) => sub.name.toLowerCase().includes(word))) }))
    .filter((group) => group.channels.length > 0);
}

/** Upstream's "Filter channels" box: Enter opens the first match, Escape gives the whole list back. */
export function ChannelFilter({ text, first }: { text: Signal<string>; first: Subscription | undefined }) {
  const { session, drawerOpen } = useChat();
  const input = useRef<HTMLInputElement>(null);
  channelFilterFocus.request = () => {
    // Shown: focused at once, so keys typed right after `q` land in the box, not in the shortcuts.
    if (input.current?.checkVisibility({ visibilityProperty: true })) {
      input.current.focus();
      return;
    }
    // On phones the box is in the closed drawer: a hidden box takes focus only once the open drawer is drawn.
    drawerOpen.value = true;
    requestAnimationFrame(() => input.current?.focus());
  };
  return (
    <input
      ref={input}
      type="search"
      class="channel-filter"
      aria-label="Filter channels"
      placeholder="Filter channels"
      value={text.value}
      onInput={(event) => (text.value = event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          text.value = '';
          input.current?.blur();
        } else if (event.key === 'Enter' && first) {
          event.preventDefault();
          text.value = '';
          input.current?.blur();
          navigate({ kind: 'channel', channelId: first.stream_id }, slugNames(session));
        }
      }}
    />
  );
}
