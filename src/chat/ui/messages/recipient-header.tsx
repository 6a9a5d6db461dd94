import type { Message } from '../../api/wire-types.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { dmKeyOf } from '../../state/unread-index.ts';
import { useChat } from '../chat-context.ts';
import { slugNames } from '../slug-names.ts';
import { messageHtml } from '../message-html.ts';
import { ChannelIcon } from '../channel-icon.tsx';
import type { timeFormatter } from '../time-format.ts';

/** The conversation a run of messages belongs to (`#channel > topic`, or the DM's people; each part a link to its narrow) and its day, as upstream's recipient bar. */
export function RecipientHeader({ message, format }: { message: Message; format: ReturnType<typeof timeFormatter> }) {
  const { session } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
  if (message.type === 'stream') {
    const channelId = message.stream_id ?? 0;
    const sub = realm.subscriptions.value.get(channelId);
    const channel = realm.channels.value.get(channelId);
    const name = channel?.name ?? String(message.display_recipient);
    const topic = message.subject;
    return (
      <div class="recipient-header" style={{ '--channel-color': sub?.color ?? '#c2c2c2' }}>
        <a class="recipient-channel" href={narrowHash({ kind: 'channel', channelId }, names)}>
          <ChannelIcon private={channel?.invite_only} /> {name}
        </a>
        <span aria-hidden="true" class="recipient-separator">›</span>
        <a class={`recipient-topic ${topic === '' ? 'empty-topic' : ''}`} href={narrowHash({ kind: 'channel', channelId, topic }, names)}>
          {topic === '' ? (
            realm.emptyTopicName.value
          ) : message.match_subject !== undefined ? (
            // A search's page: the topic with the words that matched highlighted.
            <span dangerouslySetInnerHTML={{ __html: messageHtml(message.match_subject, session.api.server) }} />
          ) : (
            topic
          )}
        </a>
        <HeaderDay timestamp={message.timestamp} format={format} />
      </div>
    );
  }
  const userIds = dmKeyOf(message, session.me).split(',').map(Number);
  const people = userIds.map((id) => (id === session.me && userIds.length === 1 ? 'Yourself' : realm.userName(id)));
  return (
    <div class="recipient-header dm">
      <a class="recipient-dm" href={narrowHash({ kind: 'dm', userIds }, names)}>
        {userIds.length === 1 && userIds[0] === session.me ? 'Messages with yourself' : `You and ${people.join(', ')}`}
      </a>
      <HeaderDay timestamp={message.timestamp} format={format} />
    </div>
  );
}

function HeaderDay({ timestamp, format }: { timestamp: number; format: ReturnType<typeof timeFormatter> }) {
  return (
    <time class="recipient-day" dateTime={new Date(timestamp * 1000).toISOString()} title={format.day(timestamp)}>
      {format.headerDay(timestamp)}
    </time>
  );
}
