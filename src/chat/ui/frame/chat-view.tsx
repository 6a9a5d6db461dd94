import { effect, untracked, useComputed, useSignal, useSignalEffect } from '@preact/signals';
import { useEffect, useLayoutEffect, useMemo } from 'preact/hooks';
import { narrowKey } from '../../narrow/narrow.ts';
import type { LocalServer } from '../../host/local-server.ts';
import type { SavedLogin } from '../../login/saved-logins.ts';
import type { ChatSession } from '../../state/session.ts';
import { apiLog } from '../api-log.ts';
import { ChatContext, type ChatContextValue } from '../chat-context.ts';
import { ComposeBox } from '../compose/compose-box.tsx';
import { ComposerState } from '../../state/composer-state.ts';
import { ImageLightbox } from '../messages/image-lightbox.tsx';
import { MessageDialogs } from '../messages/message-dialogs.tsx';
import { MessageListView } from '../messages/message-list-view.tsx';
import { NoticeList } from './notice-list.tsx';
import { notify } from '../notices.ts';
import { NarrowTitle, narrowName } from './narrow-title.tsx';
import { route } from '../navigation.ts';
import { SidePanel } from '../panels/side-panel.tsx';
import { Sidebar } from '../sidebar/sidebar.tsx';
import { TopBar } from './top-bar.tsx';
import { TypingNotice } from './typing-notice.tsx';
import { shortcutsHelpOpen, useShortcuts } from './shortcuts.ts';
import { ShortcutsHelp } from './shortcuts-help.tsx';
import { useDesktopNotifications } from './desktop-notifications.ts';
import { useSpoilerToggles } from '../spoilers.ts';
import { useCodeCopyButtons } from '../code-copy.ts';
import { useThemeFromSettings } from './theme.ts';
import { InboxView } from '../views/inbox-view.tsx';
import { RecentView } from '../views/recent-view.tsx';

/** The width at which the stylesheet lays the app out for phones. */
const PHONE_WIDTH = '(max-width: 768px)';

interface Props {
  session: ChatSession;
  login: SavedLogin;
  local: LocalServer | null;
  onReady(): void;
  onLogout(): Promise<void>;
}

/** The logged-in screen: top bar, sidebar (a drawer on phones), the narrow's messages, compose. */
export function ChatView({ session, login, local, onReady, onLogout }: Props) {
  const selectedId = useSignal<number | null>(null);
  const panel = useSignal<ChatContextValue['panel']['value']>('none');
  const drawerOpen = useSignal(false);
  const composer = useMemo(() => new ComposerState(session, login), [session]);
  const context: ChatContextValue = { session, local, composer, selectedId, panel, drawerOpen };
  const narrow = useComputed(() => route.value.narrow);
  const list = useComputed(() => session.list(narrow.value));
  useThemeFromSettings(session.realm);
  useShortcuts(context);
  useDesktopNotifications(session);
  useSpoilerToggles();
  useCodeCopyButtons();

  // A new narrow: the compose box follows it, and the drawer closes (phones). At once, not a frame
  // later as useSignalEffect would: a key pressed right after the view changed (`x`, `r`) must not
  // be undone by the box following the view after it. The selection is the new list's to set.
  useLayoutEffect(
    () =>
      effect(() => {
        const shown = narrow.value;
        // Only the narrow triggers this: what prefill reads (the composer's own state) must not.
        untracked(() => {
          composer.prefill(shown);
          drawerOpen.value = false;
          // On a phone a panel covers the messages: going to a view (a person's DM from Users) shows it.
          if (matchMedia(PHONE_WIDTH).matches) panel.value = 'none';
        });
      }),
    [],
  );

  // Upstream's title: the unread count, what is shown, the realm; a glance at the tab says what waits.
  useSignalEffect(() => {
    const realm = session.realm;
    const view = route.value.view;
    const shown = view === 'inbox' ? 'Inbox' : view === 'recent' ? 'Recent conversations' : narrowName(realm, narrow.value);
    const unread = realm.unread.value.count;
    document.title = `${unread > 0 ? `(${unread}) ` : ''}${shown} - ${realm.realmName.value} - Offline Realm`;
  });

  useEffect(() => {
    session.onEvent = (event) => {
      if (event.type !== 'heartbeat') apiLog.add({ source: 'event', method: event.type, path: event.op ?? '', status: 200, ms: 0 });
    };
    session.onSyncRefused = (refusal) => {
      const kept = refusal.message ? composer.giveBack(refusal.message) : null;
      const where = kept === 'box' ? ' Its text is back in the compose box.' : kept ? ` Its text is kept as the draft of ${kept.draftOf}.` : '';
      notify(`The hub refused a change made offline (${refusal.method} ${refusal.path}), so it was undone: ${refusal.msg}${where}`, 'error');
    };
    return local?.onRequest((entry) => apiLog.add({ ...entry, source: 'server' }));
  }, []);

  return (
    <ChatContext.Provider value={context}>
      <div
        class={`chat ${drawerOpen.value ? 'drawer-open' : ''} ${panel.value !== 'none' ? 'panel-open' : ''}`}
        // The focus gone elsewhere (a key put it in the compose box or search): the phone's drawer
        // would cover that field, so it closes.
        onFocusIn={(event) => {
          if (drawerOpen.value && !(event.target as Element).closest('.sidebar, .drawer-toggle')) drawerOpen.value = false;
        }}
      >
        <TopBar login={login} onLogout={onLogout} />
        <Sidebar />
        <button type="button" class="drawer-scrim" aria-label="Close the sidebar" tabIndex={-1} onClick={() => (drawerOpen.value = false)} />
        <main class="conversation" aria-label="Messages">
          {route.value.view === 'inbox' ? (
            <InboxView onFirstDraw={onReady} />
          ) : route.value.view === 'recent' ? (
            <RecentView onFirstDraw={onReady} />
          ) : (
            <>
              <NarrowTitle narrow={narrow.value} />
              <MessageListView key={narrowKey(narrow.value)} list={list.value} nearMessageId={route.value.nearMessageId} onFirstDraw={onReady} />
              <TypingNotice narrow={narrow.value} />
            </>
          )}
          <ComposeBox />
        </main>
        <SidePanel />
        <MessageDialogs />
        <ImageLightbox />
        <NoticeList />
        {shortcutsHelpOpen.value && <ShortcutsHelp onClose={() => (shortcutsHelpOpen.value = false)} />}
      </div>
    </ChatContext.Provider>
  );
}
