import { useEffect } from 'preact/hooks';
import type { Message } from '../../api/wire-types.ts';
import { messageInNarrow } from '../../state/message-list.ts';
import { deservesNotification } from '../../state/notify-decision.ts';
import type { ChatSession } from '../../state/session.ts';
import { conversationOf } from '../../state/unread-index.ts';
import { navigate, route } from '../navigation.ts';
import { slugNames } from '../slug-names.ts';

/** How much of a message a notification shows. */
const BODY_CHARS = 150;

/** Whether the view on screen shows the message's conversation (then, with the window focused, no notification is needed). */
function shownHere(message: Message, me: number): boolean {
  const { narrow, view } = route.value;
  return view === undefined && messageInNarrow(narrow, message, me) === true;
}

function plainText(html: string): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS - 1)}…` : text;
}

/**
 * Desktop notifications as upstream's web app gives them, once the browser allows them: for a
 * new message that deserves one (a DM, a mention, a channel that asks for it) and that the
 * person is not already looking at. A click opens its conversation at the message.
 */
export function useDesktopNotifications(session: ChatSession): void {
  useEffect(() => {
    session.onMessage = (message) => {
      if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
      const realm = session.realm;
      const context = {
        me: session.me,
        settings: realm.settings.value,
        subscription: (id: number) => realm.subscriptions.value.get(id),
        topicPolicy: (id: number, topic: string) => realm.topicPolicy(id, topic),
      };
      if (!deservesNotification(message, context) || (document.hasFocus() && shownHere(message, session.me))) return;
      const where = message.type === 'stream' && message.stream_id !== undefined ? ` (${realm.conversationName({ channelId: message.stream_id, topic: message.subject })})` : '';
      const notification = new Notification(`${message.sender_full_name}${where}`, { body: plainText(message.content), tag: `message-${message.id}` });
      notification.onclick = () => {
        window.focus();
        navigate(conversationOf(message, session.me), slugNames(session), message.id);
        notification.close();
      };
    };
    return () => {
      session.onMessage = () => {};
    };
  }, [session]);
}
