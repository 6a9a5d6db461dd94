import { narrowHash } from '../../narrow/narrow-url.ts';
import { useChat } from '../chat-context.ts';
import { slugNames } from '../slug-names.ts';
import { attempt } from '../notices.ts';
import { messageHtml } from '../message-html.ts';
import { ChannelIcon } from '../channel-icon.tsx';

/** Every channel I can see, subscribed or not: subscribe, unsubscribe, or just look. */
export function ChannelBrowser() {
  const { session } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
  const channels = [...realm.channels.value.values()].filter((channel) => !channel.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <ul class="channel-browser">
      {channels.map((channel) => {
        const subscribed = realm.subscriptions.value.has(channel.stream_id);
        return (
          <li key={channel.stream_id}>
            <div>
              <a href={narrowHash({ kind: 'channel', channelId: channel.stream_id }, names)}>
                <ChannelIcon private={channel.invite_only} />
                {channel.name}
              </a>
              {channel.rendered_description && (
                <div class="hint rendered-description" dangerouslySetInnerHTML={{ __html: messageHtml(channel.rendered_description, session.api.server) }} />
              )}
            </div>
            <button
              type="button"
              class={subscribed ? '' : 'primary'}
              aria-label={`${subscribed ? 'Unsubscribe from' : 'Subscribe to'} ${channel.name}`}
              onClick={() =>
                void attempt(subscribed ? 'Could not unsubscribe' : 'Could not subscribe', () =>
                  subscribed
                    ? session.api.delete('/users/me/subscriptions', { subscriptions: [channel.name] })
                    : session.api.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }] }),
                )
              }
            >
              {subscribed ? 'Unsubscribe' : 'Subscribe'}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
