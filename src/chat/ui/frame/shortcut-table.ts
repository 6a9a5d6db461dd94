/** What a keyboard shortcut does; {@link SHORTCUT_KEYS} binds upstream's keys to them. */
export type ShortcutAction =
  // Anywhere, with or without messages shown.
  | 'help'
  | 'search'
  | 'inbox'
  | 'recent'
  | 'combinedFeed'
  | 'starredView'
  | 'dmFeed'
  | 'nextUnreadTopic'
  | 'nextUnreadFollowedTopic'
  | 'nextUnreadDm'
  | 'compose'
  | 'newDm'
  | 'drafts'
  | 'filterChannels'
  | 'filterUsers'
  | 'setStatus'
  | 'previousChannel'
  | 'nextChannel'
  | 'toComposeTarget'
  | 'escape'
  // In a list of messages.
  | 'down'
  | 'up'
  | 'first'
  | 'last'
  | 'pageUp'
  | 'pageDown'
  | 'editLast'
  // On the selected message.
  | 'reply'
  | 'quote'
  | 'forward'
  | 'replyMention'
  | 'replyToAuthor'
  | 'edit'
  | 'star'
  | 'collapse'
  | 'thumbsUp'
  | 'firstReaction'
  | 'reactionPicker'
  | 'messageMenu'
  | 'senderCard'
  | 'image'
  | 'readReceipts'
  | 'move'
  | 'editHistory'
  | 'markUnread'
  | 'muteTopic'
  | 'conversation'
  | 'zoom';

/** Upstream's keys (named as `keyName` names them) and what each does here. */
export const SHORTCUT_KEYS: Readonly<Record<string, ShortcutAction>> = {
  '?': 'help',
  '/': 'search',
  'Ctrl+K': 'search',
  'Shift+I': 'inbox',
  T: 'recent',
  A: 'combinedFeed',
  '*': 'starredView',
  'Shift+P': 'dmFeed',
  N: 'nextUnreadTopic',
  'Shift+N': 'nextUnreadFollowedTopic',
  P: 'nextUnreadDm',
  C: 'compose',
  X: 'newDm',
  D: 'drafts',
  Q: 'filterChannels',
  W: 'filterUsers',
  'Shift+Y': 'setStatus',
  'Shift+A': 'previousChannel',
  'Shift+D': 'nextChannel',
  'Ctrl+.': 'toComposeTarget',
  Escape: 'escape',
  'Ctrl+[': 'escape',
  J: 'down',
  ArrowDown: 'down',
  K: 'up',
  ArrowUp: 'up',
  Home: 'first',
  End: 'last',
  'Shift+G': 'last',
  PageUp: 'pageUp',
  'Shift+K': 'pageUp',
  'Shift+Space': 'pageUp',
  PageDown: 'pageDown',
  'Shift+J': 'pageDown',
  Space: 'pageDown',
  ArrowLeft: 'editLast',
  R: 'reply',
  Enter: 'reply',
  '>': 'quote',
  '<': 'forward',
  '@': 'replyMention',
  'Shift+R': 'replyToAuthor',
  E: 'edit',
  'Ctrl+S': 'star',
  '-': 'collapse',
  '+': 'thumbsUp',
  '=': 'firstReaction',
  ':': 'reactionPicker',
  I: 'messageMenu',
  U: 'senderCard',
  V: 'image',
  'Shift+V': 'readReceipts',
  M: 'move',
  'Shift+H': 'editHistory',
  'Shift+U': 'markUnread',
  'Shift+M': 'muteTopic',
  S: 'conversation',
  Z: 'zoom',
};

/** Keys that work in a text field too (upstream's: search, star, the compose box's conversation). */
export const KEYS_IN_TEXT = new Set(['Ctrl+K', 'Ctrl+S', 'Ctrl+.']);

/** One line of the Keyboard shortcuts dialog: its keys (each a combination; alternatives joined by "or"). */
export interface ShortcutHelp {
  keys: readonly (readonly string[])[];
  does: string;
}

/** The Keyboard shortcuts dialog (`?`), in upstream's sections; every key bound above is here. */
export const SHORTCUT_HELP: readonly { title: string; shortcuts: readonly ShortcutHelp[] }[] = [
  {
    title: 'The basics',
    shortcuts: [
      { keys: [['?']], does: 'Show these keyboard shortcuts' },
      { keys: [['/'], ['Ctrl', 'K']], does: 'Search messages' },
      { keys: [['r'], ['Enter']], does: 'Reply to the selected message' },
      { keys: [['c']], does: 'New message in this conversation' },
      { keys: [['x']], does: 'New direct message' },
      { keys: [['d']], does: 'Drafts (again: close them)' },
      { keys: [['Esc'], ['Ctrl', '[']], does: 'Close what is open, else go to the home view' },
    ],
  },
  {
    title: 'Navigation',
    shortcuts: [
      { keys: [['Shift', 'I']], does: 'Inbox' },
      { keys: [['t']], does: 'Recent conversations' },
      { keys: [['a']], does: 'Combined feed' },
      { keys: [['*']], does: 'Starred messages' },
      { keys: [['Shift', 'P']], does: 'Direct message feed' },
      { keys: [['n']], does: 'Next unread topic' },
      { keys: [['Shift', 'N']], does: 'Next unread followed topic' },
      { keys: [['p']], does: 'Next unread direct message' },
      { keys: [['s']], does: 'The selected message’s topic or DM; from a topic, its channel' },
      { keys: [['z']], does: 'The selected message in its conversation' },
      { keys: [['Shift', 'A'], ['Shift', 'D']], does: 'Previous or next channel' },
      { keys: [['Ctrl', '.']], does: 'The conversation you are composing to' },
      { keys: [['q']], does: 'Filter channels' },
      { keys: [['w']], does: 'Filter users' },
      { keys: [['Shift', 'Y']], does: 'Set your status' },
    ],
  },
  {
    title: 'Scrolling',
    shortcuts: [
      { keys: [['j'], ['↓']], does: 'Select the next message' },
      { keys: [['k'], ['↑']], does: 'Select the previous message' },
      { keys: [['Home']], does: 'Select the first message' },
      { keys: [['End'], ['Shift', 'G']], does: 'Select the last message' },
      { keys: [['PgUp'], ['Shift', 'K']], does: 'Scroll up' },
      { keys: [['PgDn'], ['Shift', 'J'], ['Space']], does: 'Scroll down' },
    ],
  },
  {
    title: 'Inbox and Recent conversations',
    shortcuts: [
      { keys: [['j'], ['↓']], does: 'Into the list, then the next conversation' },
      { keys: [['k'], ['↑']], does: 'The previous conversation' },
      { keys: [['l'], ['→']], does: 'Along the row (its channel, Mark as read)' },
      { keys: [['h'], ['←']], does: 'Back along the row' },
      { keys: [['Shift', 'M']], does: 'Mute or unmute the topic' },
    ],
  },
  {
    title: 'Composing messages',
    shortcuts: [
      { keys: [['>']], does: 'Quote and reply to the selected message' },
      { keys: [['<']], does: 'Forward the selected message (quoted, to a conversation you choose)' },
      { keys: [['@']], does: 'Reply mentioning the sender' },
      { keys: [['Shift', 'R']], does: 'Reply to the sender in a direct message' },
      { keys: [['Ctrl', 'Enter']], does: 'Send (Enter, when “Enter sends” is on in Settings)' },
      { keys: [['Ctrl', 'B']], does: 'Bold, in the message box (again: not bold)' },
      { keys: [['Ctrl', 'I']], does: 'Italic, in the message box (again: not italic)' },
      { keys: [['Ctrl', 'Shift', 'L']], does: 'Link, in the message box' },
      { keys: [['Alt', 'P']], does: 'Preview the message, or back to its text' },
      { keys: [['←']], does: 'Edit your last message in the view (also in an empty message box)' },
    ],
  },
  {
    title: 'Message actions (the selected message)',
    shortcuts: [
      { keys: [['e']], does: 'Edit (your own)' },
      { keys: [['i']], does: 'Message actions menu' },
      { keys: [['Ctrl', 'S']], does: 'Star or unstar' },
      { keys: [['+']], does: 'React with 👍 (again: take it back)' },
      { keys: [['=']], does: 'Add or take back your vote on the first reaction' },
      { keys: [[':']], does: 'Add a reaction' },
      { keys: [['u']], does: 'The sender’s card' },
      { keys: [['v']], does: 'Show the message’s image' },
      { keys: [['Shift', 'V']], does: 'Read receipts' },
      { keys: [['m']], does: 'Move' },
      { keys: [['Shift', 'H']], does: 'Edit history' },
      { keys: [['-']], does: 'Collapse or expand' },
      { keys: [['Shift', 'U']], does: 'Mark as unread from here' },
      { keys: [['Shift', 'M']], does: 'Mute or unmute its topic' },
    ],
  },
];
