import { useSignal } from '@preact/signals';
import type { Channel } from '../../api/wire-types.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { ChannelIcon } from '../channel-icon.tsx';
import { useChat } from '../chat-context.ts';
import { Dialog } from '../dialog.tsx';
import { navigate } from '../navigation.ts';
import { CreateChannel } from './create-channel.tsx';
import { messageHtml } from '../message-html.ts';
import { attempt } from '../notices.ts';
import { slugNames } from '../slug-names.ts';
import { unsubscribe } from '../subscription-operations.ts';
import { ConfirmUnsubscribe } from '../unsubscribe-dialog.tsx';

/** Every channel I can see, subscribed or not: subscribe, unsubscribe, or just look; and a new one, if the realm lets me. */
export function ChannelBrowser() {
  const { session } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
  const channels = [...realm.channels.value.values()].filter((channel) => !channel.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const leaving = useSignal<Channel | null>(null);
  const creating = useSignal(false);
  const mayCreate = realm.may('can_create_public_channel_group') || realm.may('can_create_private_channel_group');
  const subscribe = (name: string) => attempt('Could not subscribe', () => session.api.post('/users/me/subscriptions', { subscriptions: [{ name }] }));
  return (
    <>
      {mayCreate && (
        <button type="button" class="primary channel-create" onClick={() => (creating.value = true)}>
          Create channel
        </button>
      )}
      {creating.value && (
        <Dialog title="Create a channel" onClose={() => (creating.value = false)}>
          <CreateChannel
            inDialog
            onCreated={(id) => {
              creating.value = false;
              // As upstream's web app: the new channel is where one goes next.
              navigate({ kind: 'channel', channelId: id }, names);
            }}
          />
        </Dialog>
      )}
      <ul class="channel-browser">
        {channels.map((channel) => {
          const subscribed = realm.subscriptions.value.has(channel.stream_id);
          // A private channel I may not join (the server would refuse) offers no Subscribe.
          const offered = subscribed || realm.maySubscribe(channel);
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
              {offered ? (
                <button
                  type="button"
                  class={subscribed ? '' : 'primary'}
                  aria-label={`${subscribed ? 'Unsubscribe from' : 'Subscribe to'} ${channel.name}`}
                  onClick={() => {
                    // Leaving a private channel may be for good: asked first, as upstream asks.
                    if (subscribed && channel.invite_only) leaving.value = channel;
                    else void (subscribed ? unsubscribe(session, channel.name) : subscribe(channel.name));
                  }}
                >
                  {subscribed ? 'Unsubscribe' : 'Subscribe'}
                </button>
              ) : (
                <span class="hint">Private: a member adds you</span>
              )}
            </li>
          );
        })}
      </ul>
      {leaving.value && (
        <ConfirmUnsubscribe channel={leaving.value} onClose={() => (leaving.value = null)} />
      )}
    </>
  );
}
