import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { type Narrow, ALL_MESSAGES } from '../../narrow/narrow.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { inboxRealmOf, topicShown } from '../../state/inbox.ts';
import { fetchNewestPage } from '../../state/message-list.ts';
import { type RecentConversation, recentConversations } from '../../state/recent-conversations.ts';
import { useChat } from '../chat-context.ts';
import { ConversationFilter } from './conversation-filter.tsx';
import { moveAmongRows, topicData } from './row-keys.ts';
import { slugNames } from '../slug-names.ts';
import { timeFormatter } from '../time-format.ts';
import { ChannelIcon } from '../channel-icon.tsx';

/** Messages fetched at a time; upstream's web app asks for a few hundred. */
const BATCH = 400;
/** Senders named in a row before "+N". */
const SHOWN_SENDERS = 3;

/**
 * Upstream's Recent conversations (`#recent`): every topic and DM with a message among the newest
 * loaded, the most recently active first, with its unread count, who wrote in it and when; a
 * filter by name, and upstream's Unread and Participated filters.
 */
export function RecentView({ onFirstDraw }: { onFirstDraw(): void }) {
  const { session } = useChat();
  const realm = session.realm;
  const list = session.recent;
  const filter = useSignal('');
  const unreadOnly = useSignal(false);
  const participatedOnly = useSignal(false);
  const generation = session.generation.value;
  useEffect(() => {
    if ((!list.loaded && list.loading.peek() === null) || list.stale) void list.load('newest', fetchNewestPage(session.api, ALL_MESSAGES, BATCH));
  }, [generation]);
  const settled = list.loaded || list.error.value !== null;
  useEffect(() => {
    if (settled) onFirstDraw();
  }, [settled]);

  const unreadCounts = realm.unread.value.countsByConversation();
  const policies = inboxRealmOf(realm);
  const words = filter.value.trim().toLowerCase();
  const rows = recentConversations(list.messages.value, session.me).filter((row) => {
    if ('channelId' in row && !topicShown(policies, row.channelId, row.topic)) return false;
    if ('userIds' in row && realm.isMutedDm(row.userIds)) return false;
    if (unreadOnly.value && !unreadCounts.get(row.key)) return false;
    if (participatedOnly.value && !row.participated) return false;
    return words === '' || realm.conversationName(row).toLowerCase().includes(words);
  });

  return (
    <section class="recent" aria-label="Recent conversations">
      <header class="narrow-title">
        <h1>Recent conversations</h1>
        <ConversationFilter text={filter} />
        <button type="button" class="small" aria-pressed={unreadOnly.value} onClick={() => (unreadOnly.value = !unreadOnly.value)}>
          Unread
        </button>
        <button type="button" class="small" aria-pressed={participatedOnly.value} onClick={() => (participatedOnly.value = !participatedOnly.value)}>
          Participated
        </button>
      </header>
      <div class="inbox-list" onKeyDown={(event) => moveAmongRows(event, event.currentTarget)}>
        {list.error.value && <p class="list-error">Could not load the recent conversations: {list.error.value}</p>}
        {!list.loaded && !list.error.value && <p class="list-loading">Loading…</p>}
        {list.loaded && rows.length === 0 && <p class="empty-narrow">No conversation matches these filters.</p>}
        <ul class="recent-rows" aria-label="Conversations">
          {rows.map((row) => (
            <RecentRow key={row.key} row={row} unread={unreadCounts.get(row.key) ?? 0} />
          ))}
        </ul>
        {list.loaded && !list.foundOldest.value && (
          <p class="recent-more">
            <button type="button" disabled={list.loading.value !== null} onClick={() => void list.loadOlder(BATCH)}>
              Load older conversations
            </button>
          </p>
        )}
      </div>
    </section>
  );
}

function RecentRow({ row, unread }: { row: RecentConversation; unread: number }) {
  const { session } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
  const settings = realm.settings.value;
  const format = timeFormatter(settings.timezone, settings.twenty_four_hour_time);
  const when = row.newest.timestamp;
  const today = format.day(when) === format.day(Date.now() / 1000);
  const narrow: Narrow = 'userIds' in row ? { kind: 'dm', userIds: row.userIds } : { kind: 'channel', channelId: row.channelId, topic: row.topic };
  const senders = row.senderIds.slice(0, SHOWN_SENDERS).map((id) => realm.userName(id));
  const more = row.senderIds.length - senders.length;
  return (
    <li class="recent-row" data-row {...topicData(narrow)}>
      {'channelId' in row ? (
        <a class="recent-channel" href={narrowHash({ kind: 'channel', channelId: row.channelId }, names)}>
          <span class="channel-swatch" style={{ background: realm.subscriptions.value.get(row.channelId)?.color ?? '#c2c2c2' }} aria-hidden="true">
            <ChannelIcon private={realm.channels.value.get(row.channelId)?.invite_only} />
          </span>
          {realm.channelName(row.channelId) ?? row.channelId}
        </a>
      ) : (
        <span class="recent-channel">Direct message</span>
      )}
      <a class="recent-conversation" data-row-main href={narrowHash(narrow, names)}>
        <span class={`label ${'topic' in row && row.topic === '' ? 'empty-topic' : ''}`}>
          {'userIds' in row ? realm.conversationName(row) : row.topic || realm.emptyTopicName.value}
        </span>
        {unread > 0 && (
          <span class="count" aria-label={`${unread} unread`}>
            {unread}
          </span>
        )}
      </a>
      <span class="recent-senders" title={row.senderIds.map((id) => realm.userName(id)).join(', ')}>
        {senders.join(', ')}
        {more > 0 && ` +${more}`}
      </span>
      <time class="recent-time" dateTime={new Date(when * 1000).toISOString()} title={format.full(when)}>
        {today ? format.time(when) : format.shortDay(when)}
      </time>
    </li>
  );
}
