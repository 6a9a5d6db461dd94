import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { buildInbox, channelOrder, inboxRealmOf } from '../../state/inbox.ts';
import { nextUnreadDm, nextUnreadTopic } from '../../state/next-unread.ts';
import { navigate, route, showView } from '../navigation.ts';
import type { ChatContextValue } from '../chat-context.ts';
import { canEditContent, editing, messageDialog, quoteReply, toggleCollapsed, toggleStar } from '../messages/message-operations.ts';
import { notify } from '../notices.ts';
import { slugNames } from '../slug-names.ts';
import { searchFocus } from './search-box.tsx';

/** Every key the app answers, as the Keyboard shortcuts dialog lists them (`?`). */
export const SHORTCUTS: readonly { keys: readonly string[]; does: string }[] = [
  { keys: ['?'], does: 'Show these keyboard shortcuts' },
  { keys: ['/'], does: 'Search' },
  { keys: ['Shift', 'I'], does: 'Inbox' },
  { keys: ['t'], does: 'Recent conversations' },
  { keys: ['n'], does: 'Next unread topic' },
  { keys: ['p'], does: 'Next unread direct message' },
  { keys: ['c'], does: 'New message in this conversation' },
  { keys: ['x'], does: 'New direct message' },
  { keys: ['j'], does: 'Select the next message (also ↓)' },
  { keys: ['k'], does: 'Select the previous message (also ↑)' },
  { keys: ['r'], does: 'Reply to the selected message (also Enter)' },
  { keys: ['>'], does: 'Quote and reply to the selected message' },
  { keys: ['e'], does: 'Edit the selected message (your own)' },
  { keys: ['*'], does: 'Star or unstar the selected message' },
  { keys: ['-'], does: 'Collapse or expand the selected message' },
  { keys: ['+'], does: 'React to the selected message' },
  { keys: ['Ctrl', 'Enter'], does: 'Send (Enter, when “Enter sends” is on in Settings)' },
  { keys: ['Ctrl', 'B'], does: 'Bold, in the message box (again: not bold)' },
  { keys: ['Ctrl', 'I'], does: 'Italic, in the message box (again: not italic)' },
  { keys: ['Esc'], does: 'Close what is open, or clear the selection' },
];

/** Whether the Keyboard shortcuts dialog is open (`?`, or the user menu). */
export const shortcutsHelpOpen = signal(false);

/** Elements where keys are text, not commands. */
function typingTarget(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));
}

function shownMessageIds(): number[] {
  return [...document.querySelectorAll<HTMLElement>('.message-rows [data-message-id]')].map((element) => Number(element.dataset.messageId));
}

/** Upstream's keys where they make sense ({@link SHORTCUTS} lists them). */
export function useShortcuts(context: ChatContextValue): void {
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      if (event.ctrlKey || event.metaKey || event.altKey || typingTarget(event.target)) return;
      // Enter on a focused button or link presses it (a vote, a reaction), not "reply".
      if (event.key === 'Enter' && (event.target as HTMLElement | null)?.closest?.('button, a[href], [role="button"]')) return;
      const { session, composer, selectedId, panel, drawerOpen } = context;
      const selected = findSelected(context);
      const handled = (): void => event.preventDefault();
      switch (event.key) {
        case 'Escape':
          if (panel.value !== 'none') panel.value = 'none';
          else if (drawerOpen.value) drawerOpen.value = false;
          else selectedId.value = null;
          return;
        case '/':
          handled();
          searchFocus.request();
          return;
        case 'I':
          handled();
          showView('inbox');
          return;
        case 't':
          handled();
          showView('recent');
          return;
        case '?':
          handled();
          shortcutsHelpOpen.value = true;
          return;
        case 'n':
        case 'p':
          handled();
          goToNextUnread(context, event.key === 'n' ? 'topic' : 'dm');
          return;
        case 'x':
          handled();
          composer.prefill({ kind: 'dm', userIds: [] });
          composer.focusRequest.value += 1;
          return;
        case 'c':
          handled();
          composer.prefill(route.value.narrow);
          composer.focusRequest.value += 1;
          return;
        case 'j':
        case 'ArrowDown':
        case 'k':
        case 'ArrowUp': {
          const ids = shownMessageIds();
          if (ids.length === 0) return;
          handled();
          const index = selectedId.value === null ? -1 : ids.indexOf(selectedId.value);
          const down = event.key === 'j' || event.key === 'ArrowDown';
          const next = index < 0 ? (down ? ids[0] : ids[ids.length - 1]) : ids[Math.max(0, Math.min(ids.length - 1, index + (down ? 1 : -1)))];
          selectedId.value = next;
          document.querySelector(`[data-message-id="${next}"]`)?.scrollIntoView({ block: 'nearest' });
          return;
        }
      }
      if (!selected) return;
      switch (event.key) {
        case 'r':
        case 'Enter':
          handled();
          composer.replyTo(selected);
          return;
        case '>':
          handled();
          void quoteReply(session, composer, selected);
          return;
        case '*':
          handled();
          void toggleStar(session, selected);
          return;
        case '-':
          handled();
          void toggleCollapsed(session, selected);
          return;
        case 'e':
          if (!canEditContent(session, selected)) return;
          handled();
          editing.value = selected.id;
          return;
        case '+':
          handled();
          messageDialog.value = { kind: 'react', message: selected };
          return;
      }
    }
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [context.session]);
}

/** `n` and `p`: the next conversation with unread messages, or a word that there is none. */
function goToNextUnread(context: ChatContextValue, kind: 'topic' | 'dm'): void {
  const { session } = context;
  const realm = session.realm;
  const inboxRealm = inboxRealmOf(realm);
  const inbox = buildInbox(realm.unread.value, inboxRealm);
  const shown = route.value.view ? null : route.value.narrow;
  if (kind === 'topic') {
    const current = shown?.kind === 'channel' ? { channelId: shown.channelId, topic: shown.topic } : null;
    const next = nextUnreadTopic(inbox, current, (a, b) => channelOrder(inboxRealm, a, b));
    if (next) navigate({ kind: 'channel', ...next }, slugNames(session));
    else notify('There are no other unread topics.');
  } else {
    const next = nextUnreadDm(inbox, shown?.kind === 'dm' ? shown.userIds : null);
    if (next) navigate({ kind: 'dm', userIds: next }, slugNames(session));
    else notify('There are no other unread direct messages.');
  }
}

function findSelected(context: ChatContextValue) {
  const id = context.selectedId.value;
  if (id === null) return undefined;
  return context.session.list(route.value.narrow).messages.value.find((message) => message.id === id);
}
