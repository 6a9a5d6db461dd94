import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { SavedLogin } from '../../login/saved-logins.ts';
import { useChat } from '../chat-context.ts';
import { usePopupDismiss } from '../popup-dismiss.ts';
import { SearchBox } from './search-box.tsx';
import { ServerIndicator } from './server-indicator.tsx';
import { shortcutsHelpOpen } from './shortcuts.ts';
import { StatusDialog, statusDialogOpen } from './status-dialog.tsx';

interface Props {
  login: SavedLogin;
  onLogout(): Promise<void>;
}

/** Menu toggle (phones), realm name, search, where the server runs, and the user's menu. */
export function TopBar({ login, onLogout }: Props) {
  const { session, panel, drawerOpen, local } = useChat();
  const realm = session.realm;
  const avatar = realm.meUser.value?.avatar_url;
  const menuOpen = useSignal(false);
  const userMenu = useRef<HTMLDivElement>(null);
  usePopupDismiss(menuOpen, userMenu);
  const open = (which: typeof panel.value) => {
    panel.value = panel.value === which ? 'none' : which;
    menuOpen.value = false;
  };
  return (
    <header class="top-bar">
      <button type="button" class="icon-button drawer-toggle" aria-label="Channels and conversations" aria-expanded={drawerOpen.value} onClick={() => (drawerOpen.value = !drawerOpen.value)}>
        ☰
      </button>
      <a class="realm-name" href="#">
        {realm.realmName.value}
      </a>
      <SearchBox />
      <ServerIndicator server={login.server} />
      <button type="button" class="icon-button users-toggle" aria-label="Users" aria-expanded={panel.value === 'users'} title="Users" onClick={() => open('users')}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="currentColor">
          <circle cx="9" cy="8" r="3.5" />
          <path d="M2 20c0-3.9 3.1-7 7-7s7 3.1 7 7z" />
          <circle cx="17" cy="9" r="2.8" />
          <path d="M17.5 13.2c2.7.3 4.5 2.9 4.5 5.8h-4.4c-.2-2.3-1.1-4.3-2.6-5.6.8-.2 1.6-.3 2.5-.2z" />
        </svg>
      </button>
      <div class="user-menu" ref={userMenu}>
        <button type="button" class="user-button" aria-haspopup="menu" aria-expanded={menuOpen.value} onClick={() => (menuOpen.value = !menuOpen.value)}>
          <span class="visually-hidden">Menu for </span>
          {avatar && <img class="user-button-avatar" src={session.api.resolve(avatar)} alt="" width={24} height={24} />}
          <span class="user-button-name">{realm.meUser.value?.full_name ?? login.fullName}</span>
        </button>
        {menuOpen.value && (
          <div class="menu" role="menu">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                menuOpen.value = false;
                statusDialogOpen.value = true;
              }}
            >
              Set status
            </button>
            <button type="button" role="menuitem" onClick={() => open('settings')}>
              Settings
            </button>
            <button type="button" role="menuitem" onClick={() => open('scheduled')}>
              Scheduled messages and reminders
            </button>
            <button type="button" role="menuitem" onClick={() => open('drafts')}>
              Drafts
            </button>
            {realm.permissions.value.isAdmin && (
              <button type="button" role="menuitem" onClick={() => open('admin')}>
                Organization administration
              </button>
            )}
            <button type="button" role="menuitem" onClick={() => open('api-log')}>
              API log
            </button>
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                menuOpen.value = false;
                shortcutsHelpOpen.value = true;
              }}
            >
              Keyboard shortcuts
            </button>
            {local && (
              <button type="button" role="menuitem" onClick={() => open('realm')}>
                Realm tools (reset, scenarios, export)
              </button>
            )}
          </div>
        )}
      </div>
      <button type="button" class="logout-button" onClick={() => void onLogout()}>
        Log out
      </button>
      {statusDialogOpen.value && <StatusDialog onClose={() => (statusDialogOpen.value = false)} />}
    </header>
  );
}
