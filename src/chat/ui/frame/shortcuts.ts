import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { ALL_MESSAGES, DM_FEED, type Narrow } from '../../narrow/narrow.ts';
import { buildInbox, channelOrder, inboxRealmOf } from '../../state/inbox.ts';
import { followedTopicsOf, nextUnreadDm, nextUnreadTopic } from '../../state/next-unread.ts';
import type { ChatContextValue } from '../chat-context.ts';
import { pressName } from '../key-names.ts';
import { navigate, route, showView } from '../navigation.ts';
import { messageListControl } from '../messages/list-control.ts';
import { editLastOwnMessage, toggleTopicMute } from '../messages/message-operations.ts';
import { notify } from '../notices.ts';
import { usersFilterFocus } from '../panels/users-panel.tsx';
import { channelFilterFocus } from '../sidebar/channel-filter.tsx';
import { sidebarChannelGroups } from '../sidebar/sidebar-channel-order.ts';
import { slugNames } from '../slug-names.ts';
import { runOnMessage } from './message-shortcuts.ts';
import { searchFocus } from './search-box.tsx';
import { focusedTopicRow, focusFirstRow } from '../views/row-keys.ts';
import { KEYS_IN_TEXT, SHORTCUT_KEYS, type ShortcutAction } from './shortcut-table.ts';
import { statusDialogOpen } from './status-dialog.tsx';

/** Whether the Keyboard shortcuts dialog is open (`?`, or the user menu). */
export const shortcutsHelpOpen = signal(false);

/** Elements where keys are text, not commands. */
function typingTarget(target: HTMLElement | null): boolean {
  return !!target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

function shownMessageIds(): number[] {
  return [...document.querySelectorAll<HTMLElement>('.message-rows [data-message-id]')].map((element) => Number(element.dataset.messageId));
}

/** Upstream's keys where they make sense ({@link SHORTCUT_HELP} lists them). */
export function useShortcuts(context: ChatContextValue): void {
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      const name = pressName(event);
      const action = name === null ? undefined : SHORTCUT_KEYS[name];
      if (name === null || action === undefined) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (typingTarget(target) && !KEYS_IN_TEXT.has(name)) {
        // Upstream's Esc in a field leaves it (once the field has used it, say to close its
        // suggestions), so the keys work again.
        if (action === 'escape' && !event.defaultPrevented) target?.blur();
        return;
      }
      // Enter or Space on a focused button or link presses it (a vote, a reaction), not "reply";
      // the arrows in an open menu move among its choices.
      if ((name === 'Enter' || name === 'Space') && target?.closest('button, a[href], [role="button"], summary')) return;
      // An open menu or dialog takes its own keys (Esc closes it and does nothing else, `i` closes
      // the message menu). Nor do the others act while one is open elsewhere (a menu opened by a
      // click leaves the focus on its button): nothing opens beside it, and the view stays; `i`
      // there still closes the message menu it opened.
      if (target?.closest('[role="menu"], dialog')) return;
      if (document.querySelector('[role="menu"], dialog[open]') && action !== 'messageMenu') return;
      if (run(action, context)) event.preventDefault();
    }
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [context.session]);
}

/** Where upstream's `c` writes from a view: its conversation, or the one channel (and topic) its terms name. */
function composeDefaults(narrow: Narrow): Narrow | null {
  if (narrow.kind === 'channel' || narrow.kind === 'dm') return narrow;
  if (narrow.kind !== 'terms') return null;
  const term = (operator: string) => narrow.terms.find((candidate) => candidate.operator === operator && !candidate.negated);
  const channel = term('channel') ?? term('stream');
  if (typeof channel?.operand !== 'number') return null;
  const topic = term('topic');
  return { kind: 'channel', channelId: channel.operand, topic: typeof topic?.operand === 'string' ? topic.operand : undefined };
}

/** The person's home view (upstream's `web_home_view`), where Esc goes with nothing else to close. */
function goHome({ session }: ChatContextValue): void {
  const home = session.realm.settings.value.web_home_view;
  if (home === 'all_messages') navigate(ALL_MESSAGES, slugNames(session));
  else showView(home === 'recent_topics' ? 'recent' : 'inbox');
}

/** Does what the key is bound to; false when it does nothing here (the browser then keeps it). */
function run(action: ShortcutAction, context: ChatContextValue): boolean {
  const { session, composer, selectedId, panel, drawerOpen } = context;
  const names = slugNames(session);
  switch (action) {
    case 'escape':
      if (panel.value !== 'none') panel.value = 'none';
      else if (drawerOpen.value) drawerOpen.value = false;
      else if (session.realm.settings.value.web_escape_navigates_to_home_view !== false) goHome(context);
      else selectedId.value = null;
      return false;
    case 'help':
      shortcutsHelpOpen.value = true;
      return true;
    case 'search':
      searchFocus.request();
      return true;
    case 'inbox':
      showView('inbox');
      return true;
    case 'recent':
      showView('recent');
      return true;
    case 'combinedFeed':
      navigate(ALL_MESSAGES, names);
      return true;
    case 'starredView':
      navigate({ kind: 'starred' }, names);
      return true;
    case 'dmFeed':
      navigate(DM_FEED, names);
      return true;
    case 'nextUnreadTopic':
    case 'nextUnreadFollowedTopic':
      goToNextUnreadTopic(context, action === 'nextUnreadFollowedTopic');
      return true;
    case 'nextUnreadDm':
      goToNextUnreadDm(context);
      return true;
    case 'compose': {
      // Upstream's `c`: the view's channel (and topic); a view of no one channel starts with none chosen.
      const shown = composeDefaults(route.value.narrow);
      if (shown) composer.prefill(shown);
      else composer.startNew();
      composer.focusRequest.value += 1;
      return true;
    }
    case 'newDm':
      // Upstream's `x`: in a DM's view, to its people; elsewhere, to people yet to be chosen.
      composer.prefill(route.value.narrow.kind === 'dm' ? route.value.narrow : { kind: 'dm', userIds: [] });
      composer.focusRequest.value += 1;
      return true;
    case 'drafts':
      panel.value = panel.value === 'drafts' ? 'none' : 'drafts';
      return true;
    case 'filterChannels':
      channelFilterFocus.request();
      return true;
    case 'previousChannel':
    case 'nextChannel':
      return goToNeighbourChannel(context, action === 'nextChannel' ? 1 : -1);
    case 'filterUsers':
      panel.value = 'users';
      usersFilterFocus.request();
      return true;
    case 'setStatus':
      statusDialogOpen.value = true;
      return true;
    case 'toComposeTarget': {
      const conversation = composer.conversation();
      if (!conversation) return false;
      navigate(conversation, names);
      return true;
    }
  }
  // Upstream's Shift+M works on a topic's row of the Inbox or Recent conversations too.
  const row = action === 'muteTopic' ? focusedTopicRow() : null;
  if (row) {
    // Muted, the row may leave the list: the focus goes on from the row after it.
    row.keepFocusNearby();
    void toggleTopicMute(session, row.channelId, row.topic);
    return true;
  }
  // In the Inbox or Recent conversations, the arrows (and j, k) go into the list; its rows take them from there.
  if (route.value.view !== undefined) return (action === 'down' || action === 'up') && focusFirstRow();
  // The rest act on the messages shown.
  switch (action) {
    case 'down':
    case 'up':
      return moveSelection(context, action === 'down' ? 1 : -1);
    case 'first':
      messageListControl.current.first();
      return true;
    case 'last':
      messageListControl.current.last();
      return true;
    case 'pageUp':
    case 'pageDown':
      messageListControl.current.page(action === 'pageDown' ? 1 : -1);
      return true;
    case 'editLast':
      return editLastOwnMessage(session, route.value.narrow);
  }
  const selected = findSelected(context);
  return selected !== undefined && runOnMessage(action, context, selected);
}

/** `Shift+A` and `Shift+D`: from a channel (or its topic), the sidebar's channel before or after it, wrapping round. */
function goToNeighbourChannel({ session }: ChatContextValue, step: 1 | -1): boolean {
  const shown = route.value.view ? null : route.value.narrow;
  if (shown?.kind !== 'channel') return false;
  const ids = sidebarChannelGroups(session.realm).flatMap((group) => group.channels.map((channel) => channel.stream_id));
  const at = ids.indexOf(shown.channelId);
  if (at < 0 || ids.length < 2) return false;
  navigate({ kind: 'channel', channelId: ids[(at + step + ids.length) % ids.length] }, slugNames(session));
  return true;
}

/** `j`, `k` and the arrows: the next or previous message shown becomes the selected one. */
function moveSelection({ selectedId }: ChatContextValue, step: 1 | -1): boolean {
  const ids = shownMessageIds();
  if (ids.length === 0) return false;
  const index = selectedId.value === null ? -1 : ids.indexOf(selectedId.value);
  const next = index < 0 ? (step > 0 ? ids[0] : ids[ids.length - 1]) : ids[Math.max(0, Math.min(ids.length - 1, index + step))];
  selectedId.value = next;
  document.querySelector(`[data-message-id="${next}"]`)?.scrollIntoView({ block: 'nearest' });
  return true;
}

/** `n` (`Shift+N`: followed topics only): the next topic with unread messages, or a word that there is none. */
function goToNextUnreadTopic({ session }: ChatContextValue, followedOnly: boolean): void {
  const inboxRealm = inboxRealmOf(session.realm);
  const all = buildInbox(session.realm.unread.value, inboxRealm);
  const inbox = followedOnly ? followedTopicsOf(all, inboxRealm) : all;
  const shown = route.value.view ? null : route.value.narrow;
  const current = shown?.kind === 'channel' ? { channelId: shown.channelId, topic: shown.topic } : null;
  const next = nextUnreadTopic(inbox, current, (a, b) => channelOrder(inboxRealm, a, b));
  if (next) navigate({ kind: 'channel', ...next }, slugNames(session));
  else notify(followedOnly ? 'There are no unread followed topics.' : 'There are no other unread topics.');
}

/** `p`: the next DM conversation with unread messages, or a word that there is none. */
function goToNextUnreadDm({ session }: ChatContextValue): void {
  const inbox = buildInbox(session.realm.unread.value, inboxRealmOf(session.realm));
  const shown = route.value.view ? null : route.value.narrow;
  const next = nextUnreadDm(inbox, shown?.kind === 'dm' ? shown.userIds : null);
  if (next) navigate({ kind: 'dm', userIds: next }, slugNames(session));
  else notify('There are no other unread direct messages.');
}

function findSelected(context: ChatContextValue) {
  const id = context.selectedId.value;
  if (id === null) return undefined;
  return context.session.list(route.value.narrow).messages.value.find((message) => message.id === id);
}
