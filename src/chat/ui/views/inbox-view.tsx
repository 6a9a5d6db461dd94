import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Narrow } from '../../narrow/narrow.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { buildInbox, inboxRealmOf, type Tally, tallyOf } from '../../state/inbox.ts';
import { useChat } from '../chat-context.ts';
import { ConversationFilter } from './conversation-filter.tsx';
import { markNarrowRead } from '../messages/message-operations.ts';
import { slugNames } from '../slug-names.ts';
import { moveAmongRows, topicData } from './row-keys.ts';

const DMS = 'dms';

/**
 * Upstream's Inbox (`#inbox`): every conversation with unread messages, grouped by channel, each
 * a link to read it and a button to mark it read; a filter narrows the list by name.
 */
export function InboxView({ onFirstDraw }: { onFirstDraw(): void }) {
  const { session } = useChat();
  const realm = session.realm;
  const filter = useSignal('');
  const collapsed = useSignal<ReadonlySet<string>>(new Set());
  useEffect(onFirstDraw, []);

  const inbox = buildInbox(realm.unread.value, inboxRealmOf(realm));
  const words = filter.value.trim().toLowerCase();
  const matches = (name: string): boolean => words === '' || name.toLowerCase().includes(words);
  const dms = inbox.dms
    .filter((dm) => !realm.isMutedDm(dm.userIds))
    .map((dm) => ({ ...dm, name: realm.conversationName({ userIds: dm.userIds }) }))
    .filter((dm) => matches(dm.name));
  const channels = inbox.channels
    .map((channel) => {
      const name = `#${realm.channelName(channel.channelId) ?? channel.channelId}`;
      return { ...channel, name, topics: channel.topics.filter((topic) => matches(`${name} ${topic.topic}`)) };
    })
    .filter((channel) => channel.topics.length > 0);
  const toggle = (key: string): void => {
    const next = new Set(collapsed.value);
    if (!next.delete(key)) next.add(key);
    collapsed.value = next;
  };
  const nothing = inbox.dms.length === 0 && inbox.channels.length === 0;

  return (
    <section class="inbox" aria-label="Inbox">
      <header class="narrow-title">
        <h1>Inbox</h1>
        <ConversationFilter text={filter} />
      </header>
      <div class="inbox-list" onKeyDown={(event) => moveAmongRows(event, event.currentTarget)}>
        {nothing && (
          <p class="empty-narrow">
            There are no unread messages in your inbox. <a href="#">Read the combined feed</a>
          </p>
        )}
        {!nothing && dms.length === 0 && channels.length === 0 && <p class="empty-narrow">No unread conversation matches “{filter.value.trim()}”.</p>}
        {dms.length > 0 && (
          <InboxGroup label="Direct messages" tally={tallyOf(dms)} collapsed={collapsed.value.has(DMS)} onToggle={() => toggle(DMS)}>
            {dms.map((dm) => (
              <InboxRow key={dm.name} tally={dm} narrow={{ kind: 'dm', userIds: dm.userIds }} name={dm.name} label={dm.name} />
            ))}
          </InboxGroup>
        )}
        {channels.map((channel) => (
          <InboxGroup
            key={channel.channelId}
            label={channel.name}
            narrow={{ kind: 'channel', channelId: channel.channelId }}
            color={realm.subscriptions.value.get(channel.channelId)?.color}
            tally={tallyOf(channel.topics)}
            collapsed={collapsed.value.has(String(channel.channelId))}
            onToggle={() => toggle(String(channel.channelId))}
          >
            {channel.topics.map((topic) => (
              <InboxRow
                key={topic.topic}
                tally={topic}
                narrow={{ kind: 'channel', channelId: channel.channelId, topic: topic.topic }}
                name={realm.conversationName({ channelId: channel.channelId, topic: topic.topic })}
                label={topic.topic || realm.emptyTopicName.value}
              />
            ))}
          </InboxGroup>
        ))}
      </div>
    </section>
  );
}

interface GroupProps {
  label: string;
  /** The channel the heading links to; DMs have none. */
  narrow?: Narrow;
  color?: string;
  tally: Tally;
  collapsed: boolean;
  onToggle(): void;
  children: preact.ComponentChildren;
}

function InboxGroup({ label, narrow, color, tally, collapsed, onToggle, children }: GroupProps) {
  const { session } = useChat();
  return (
    <section class="inbox-group" aria-label={label} style={color ? { '--channel-color': color } : undefined}>
      <h2 class="inbox-group-header" data-row>
        <button type="button" class="icon-button" aria-expanded={!collapsed} aria-label={`${collapsed ? 'Expand' : 'Collapse'} ${label}`} onClick={onToggle}>
          {collapsed ? '▸' : '▾'}
        </button>
        {narrow ? (
          <a class="inbox-group-name" data-row-main href={narrowHash(narrow, slugNames(session))}>
            {label}
          </a>
        ) : (
          <span class="inbox-group-name">{label}</span>
        )}
        <Counts tally={tally} />
        {narrow && (
          <button type="button" class="icon-button" aria-label={`Mark ${label} as read`} title="Mark as read" onClick={() => void markNarrowRead(session, narrow)}>
            ✓
          </button>
        )}
      </h2>
      {!collapsed && <ul>{children}</ul>}
    </section>
  );
}

interface RowProps {
  tally: Tally;
  narrow: Narrow;
  /** The conversation's full name, for the button's label. */
  name: string;
  label: string;
}

function InboxRow({ tally, narrow, name, label }: RowProps) {
  const { session } = useChat();
  return (
    <li class="inbox-row" data-row {...topicData(narrow)}>
      <a data-row-main href={narrowHash(narrow, slugNames(session))}>
        <span class={`label ${narrow.kind === 'channel' && narrow.topic === '' ? 'empty-topic' : ''}`}>{label}</span>
        <Counts tally={tally} />
      </a>
      <button type="button" class="icon-button" aria-label={`Mark ${name} as read`} title="Mark as read" onClick={() => void markNarrowRead(session, narrow)}>
        ✓
      </button>
    </li>
  );
}

function Counts({ tally: { count, mentioned } }: { tally: Tally }) {
  return (
    <>
      {mentioned && (
        <span class="mention-marker" title="You are mentioned">
          @<span class="visually-hidden"> mentioned</span>
        </span>
      )}
      <span class="count" aria-label={`${count} unread`}>
        {count}
      </span>
    </>
  );
}
