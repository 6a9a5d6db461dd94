import { useSignal } from '@preact/signals';
import type { Message } from '../../api/wire-types.ts';
import { useRef } from 'preact/hooks';
import { useChat } from '../chat-context.ts';
import { copyToClipboard, messageDialog, narrowLink } from '../messages/message-operations.ts';
import { useKeepInView } from '../keep-in-view.ts';
import { usePopupDismiss } from '../popup-dismiss.ts';

/**
 * The open topic's rarer actions behind one button, as upstream's topic menu: Rename topic and
 * Move topic (its newest loaded message moved with all the others), Copy link to topic, and
 * Delete topic for administrators; each offered as the realm lets the user, the server deciding.
 * `newest` (none in a topic no one wrote in) names the whole topic to `PATCH /messages/{id}`
 * with change_all.
 */
export function TopicMenu({ channelId, topic, newest }: { channelId: number; topic: string; newest: Message | undefined }) {
  const { session } = useChat();
  const realm = session.realm;
  const open = useSignal(false);
  const narrow = { kind: 'channel' as const, channelId, topic };
  const close = () => (open.value = false);
  const holder = useRef<HTMLDivElement>(null);
  usePopupDismiss(open, holder);
  const menu = useRef<HTMLDivElement>(null);
  useKeepInView(open, menu);
  return (
    <div class="topic-menu" ref={holder}>
      <button type="button" class="small" aria-label="Topic actions" aria-haspopup="menu" aria-expanded={open.value} onClick={() => (open.value = !open.value)}>
        ⋯
      </button>
      {open.value && (
        <div ref={menu} class="menu" role="menu" onClick={close}>
          {newest && realm.may('can_move_messages_between_topics_group') && (
            <button type="button" role="menuitem" onClick={() => (messageDialog.value = { kind: 'move', message: newest, whole: 'rename' })}>
              Rename topic
            </button>
          )}
          {newest && realm.may('can_move_messages_between_channels_group') && (
            <button type="button" role="menuitem" onClick={() => (messageDialog.value = { kind: 'move', message: newest, whole: 'move' })}>
              Move topic
            </button>
          )}
          <button type="button" role="menuitem" onClick={() => void copyToClipboard(narrowLink(session, narrow))}>
            Copy link to topic
          </button>
          {newest && realm.isAdmin.value && (
            <button type="button" role="menuitem" class="danger" onClick={() => (messageDialog.value = { kind: 'deleteTopic', channelId, topic })}>
              Delete topic
            </button>
          )}
        </div>
      )}
    </div>
  );
}
