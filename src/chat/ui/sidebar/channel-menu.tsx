import { type Signal, useSignal, useSignalEffect } from '@preact/signals';
import type { Subscription } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import { ReadAndLinkItems } from '../messages/topic-menu-items.tsx';
import { ChannelSettings } from '../panels/channel-settings.tsx';
import { setSubscriptionProperty, unsubscribe } from '../subscription-operations.ts';
import { ConfirmUnsubscribe } from '../unsubscribe-dialog.tsx';
import { ColorChoices } from './color-choices.tsx';
import { RowMenu } from './row-menu.tsx';

/**
 * A sidebar channel's "⋮" menu, as upstream's: Mark all messages as read, Copy link to channel,
 * Channel settings (for administrators: the panel is theirs), Pin/Unpin, Mute/Unmute, Unsubscribe
 * and Change color. Each is a request; the sidebar follows the server's events.
 */
export function ChannelMenu({ sub, open }: { sub: Subscription; open: Signal<boolean> }) {
  const { session } = useChat();
  const realm = session.realm;
  const narrow = { kind: 'channel' as const, channelId: sub.stream_id };
  const picking = useSignal(false);
  const settingsOpen = useSignal(false);
  const leaving = useSignal(false);
  const set = (property: string, value: unknown) => void setSubscriptionProperty(session, sub, property, value);
  // The palette is for this opening only: the next one starts from the list again.
  useSignalEffect(() => {
    if (!open.value) picking.value = false;
  });
  return (
    <>
      <RowMenu label={`Channel options for #${sub.name}`} open={open}>
        {picking.value ? (
          <ColorChoices
            current={sub.color}
            onChoose={(color) => {
              set('color', color);
              open.value = false;
            }}
          />
        ) : (
          <>
            <ReadAndLinkItems narrow={narrow} linkLabel="Copy link to channel" markRead />
            {realm.isAdmin.value && (
              <button type="button" role="menuitem" onClick={() => (settingsOpen.value = true)}>
                Channel settings
              </button>
            )}
            <button type="button" role="menuitem" onClick={() => set('pin_to_top', !sub.pin_to_top)}>
              {sub.pin_to_top ? 'Unpin channel from top' : 'Pin channel to top'}
            </button>
            <button type="button" role="menuitem" onClick={() => set('is_muted', !sub.is_muted)}>
              {sub.is_muted ? 'Unmute channel' : 'Mute channel'}
            </button>
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                if (sub.invite_only) leaving.value = true;
                else void unsubscribe(session, sub.name);
              }}
            >
              Unsubscribe
            </button>
            <button
              type="button"
              role="menuitem"
              onClick={(event) => {
                // The menu stays open, showing the palette instead of its list.
                event.stopPropagation();
                picking.value = true;
              }}
            >
              Change color
            </button>
          </>
        )}
      </RowMenu>
      {settingsOpen.value && <ChannelSettings channelId={sub.stream_id} onClose={() => (settingsOpen.value = false)} />}
      {leaving.value && <ConfirmUnsubscribe channel={sub} onClose={() => (leaving.value = false)} />}
    </>
  );
}
