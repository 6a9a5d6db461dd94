import { useSignal } from '@preact/signals';
import type { Subscription } from '../../api/wire-types.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { TOPIC_MUTED } from '../../state/realm-state.ts';
import { useChat } from '../chat-context.ts';
import { slugNames } from '../slug-names.ts';
import { route } from '../navigation.ts';
import { ChannelIcon } from '../channel-icon.tsx';
import { ChannelFilter, channelsMatching } from './channel-filter.tsx';
import { ChannelMenu } from './channel-menu.tsx';
import { openOnRightClick } from './row-menu.tsx';
import { sidebarChannelGroups } from './sidebar-channel-order.ts';
import { TopicList } from './topic-list.tsx';

/** Subscribed channels: pinned first, then by channel folder, each with its unread count; the open channel lists its topics. A filter narrows them by name. */
export function ChannelSection() {
  const { session } = useChat();
  const filter = useSignal('');
  const groups = channelsMatching(sidebarChannelGroups(session.realm), filter.value);
  const typed = filter.value.trim();
  const current = route.value.narrow;
  const openChannel = current.kind === 'channel' ? current.channelId : null;

  return (
    <div class="channel-section">
      <ChannelFilter text={filter} first={groups[0]?.channels[0]} />
      {groups.map((group) => (
        <section key={group.key} class="channel-folder" aria-label={group.title}>
          <h3>{group.title}</h3>
          <ul>
            {group.channels.map((sub) => (
              <ChannelItem key={sub.stream_id} sub={sub} open={openChannel === sub.stream_id} />
            ))}
          </ul>
        </section>
      ))}
      {groups.length === 0 && typed !== '' && <p class="hint channel-filter-empty">No channels match “{typed}”.</p>}
    </div>
  );
}

function ChannelItem({ sub, open }: { sub: Subscription; open: boolean }) {
  const { session } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
  const count = realm.unread.value.countWhere((entry) => entry.channelId === sub.stream_id && realm.topicPolicy(sub.stream_id, entry.topicKey ?? '') !== TOPIC_MUTED);
  const current = route.value.narrow;
  const selected = current.kind === 'channel' && current.channelId === sub.stream_id && current.topic === undefined;
  const menuOpen = useSignal(false);
  return (
    <li class={`channel-item ${sub.is_muted ? 'muted' : ''}`}>
      <a
        href={narrowHash({ kind: 'channel', channelId: sub.stream_id }, names)}
        aria-current={selected ? 'page' : undefined}
        onContextMenu={(event) => openOnRightClick(event, menuOpen)}
      >
        <span class="channel-swatch" style={{ background: sub.color }} aria-hidden="true">
          <ChannelIcon private={sub.invite_only} />
        </span>
        <span class="label">{sub.name}</span>
        {sub.is_muted && <span class="visually-hidden">(muted)</span>}
        {count > 0 && <span class="count" aria-label={`${count} unread`}>{count}</span>}
      </a>
      <ChannelMenu sub={sub} open={menuOpen} />
      {open && <TopicList channelId={sub.stream_id} />}
    </li>
  );
}
