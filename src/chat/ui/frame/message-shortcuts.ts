import type { Message } from '../../api/wire-types.ts';
import type { Narrow } from '../../narrow/narrow.ts';
import { conversationOf } from '../../state/unread-index.ts';
import type { ChatContextValue } from '../chat-context.ts';
import { POPULAR_EMOJI } from '../emoji.ts';
import { navigate, route } from '../navigation.ts';
import { showFirstImage } from '../messages/image-lightbox.tsx';
import { menuToggleRequest } from '../messages/message-actions.tsx';
import {
  canEditContent,
  editing,
  forwardMessage,
  markUnreadFromHere,
  mayMoveMessage,
  messageDialog,
  quoteReply,
  replyMentioning,
  toggleCollapsed,
  toggleReaction,
  toggleStar,
  toggleTopicMute,
} from '../messages/message-operations.ts';
import { slugNames } from '../slug-names.ts';
import type { ShortcutAction } from './shortcut-table.ts';

/** 👍, which upstream's `+` toggles. */
const THUMBS_UP = { ...POPULAR_EMOJI[0], type: 'unicode_emoji' };

/**
 * Upstream's keys for the selected message. False when the key does nothing to this message
 * (not mine to edit, no image, a setting of the realm turns it off), so the browser keeps it.
 */
export function runOnMessage(action: ShortcutAction, context: ChatContextValue, message: Message): boolean {
  const { session, composer } = context;
  const realm = session.realm;
  const names = slugNames(session);
  switch (action) {
    case 'reply':
      void composer.replyTo(message);
      return true;
    case 'quote':
      void quoteReply(session, composer, message);
      return true;
    case 'forward':
      void forwardMessage(session, composer, message);
      return true;
    case 'replyMention':
      void replyMentioning(composer, message);
      return true;
    case 'replyToAuthor':
      composer.prefill({ kind: 'dm', userIds: [message.sender_id] });
      composer.focusRequest.value += 1;
      return true;
    case 'edit':
      if (!canEditContent(session, message)) return false;
      editing.value = message.id;
      return true;
    case 'star':
      void toggleStar(session, message);
      return true;
    case 'collapse':
      void toggleCollapsed(session, message);
      return true;
    case 'thumbsUp':
      void toggleReaction(session, message, THUMBS_UP);
      return true;
    case 'firstReaction': {
      const [first] = message.reactions;
      if (first) void toggleReaction(session, message, { name: first.emoji_name, code: first.emoji_code, type: first.reaction_type });
      return true;
    }
    case 'reactionPicker':
      messageDialog.value = { kind: 'react', message };
      return true;
    case 'messageMenu':
      menuToggleRequest.value = message.id;
      return true;
    case 'senderCard':
      messageDialog.value = { kind: 'user', userId: message.sender_id };
      return true;
    case 'image': {
      const element = document.querySelector(`[data-message-id="${message.id}"]`);
      return element !== null && showFirstImage(element);
    }
    case 'readReceipts':
      if (!realm.realmFlags.value.readReceipts) return false;
      messageDialog.value = { kind: 'receipts', message };
      return true;
    case 'move':
      if (!mayMoveMessage(session, message)) return false;
      messageDialog.value = { kind: 'move', message };
      return true;
    case 'editHistory':
      if (!realm.realmFlags.value.allowEditHistory) return false;
      messageDialog.value = { kind: 'history', message };
      return true;
    case 'markUnread':
      void markUnreadFromHere(session, route.value.narrow, message);
      return true;
    case 'muteTopic':
      if (message.type !== 'stream' || message.stream_id === undefined) return false;
      void toggleTopicMute(session, message.stream_id, message.subject);
      return true;
    case 'conversation': {
      // Upstream's `s`: from a topic to its channel; from a DM nowhere; else to the message's conversation.
      const shown = route.value.narrow;
      if (shown.kind === 'dm') return false;
      const to: Narrow = shown.kind === 'channel' && shown.topic !== undefined ? { kind: 'channel', channelId: shown.channelId } : conversationOf(message, session.me);
      navigate(to, names, message.id);
      return true;
    }
    case 'zoom':
      navigate(conversationOf(message, session.me), names, message.id);
      return true;
    default:
      return false;
  }
}
