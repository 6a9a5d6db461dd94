import type { Message } from '../../api/wire-types.ts';
import { marksReadWhenShown } from '../../narrow/narrow.ts';
import { conversationOf } from '../../state/unread-index.ts';
import type { ChatContextValue } from '../chat-context.ts';
import { navigate, route } from '../navigation.ts';
import { slugNames } from '../slug-names.ts';
import { editing } from './message-operations.ts';

/** Parts of a message that do something of their own when clicked. */
const OWN_CLICK = 'a, button, input, textarea, select, label, summary, img, video, audio, [role="button"], [role="menu"], .spoiler-header, .message-editor';

/**
 * Upstream's click on a message: it is selected, and the compose box replies to it (in a search,
 * a starred or other partial view: its conversation opens at it instead). Only selected: a click
 * on a link, button or image of its own, one that ends a text selection, a message being edited,
 * and a tap (upstream's phones reply on a long tap only; here the message's actions show).
 */
export function onMessageClick(event: MouseEvent, message: Message, context: ChatContextValue): void {
  const { session, composer, selectedId } = context;
  selectedId.value = message.id;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest(OWN_CLICK) || editing.value === message.id) return;
  if (document.getSelection()?.type === 'Range') return;
  if ('pointerType' in event && event.pointerType === 'touch') return;
  // The views that mark read as they show are those of whole conversations; the others only find messages.
  if (!marksReadWhenShown(route.value.narrow)) {
    navigate(conversationOf(message, session.me), slugNames(session), message.id);
    return;
  }
  void composer.replyTo(message);
}
