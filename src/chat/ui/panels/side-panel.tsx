import { useChat } from '../chat-context.ts';
import { ApiLogPanel } from './api-log-panel.tsx';
import { ChannelBrowser } from './channel-browser.tsx';
import { SettingsPanel } from './settings-panel.tsx';
import { AdminPanel } from './admin-panel.tsx';
import { RealmToolsPanel } from './realm-tools-panel.tsx';
import { ScheduledPanel } from './scheduled-panel.tsx';
import { DraftsPanel } from './drafts-panel.tsx';
import { UsersPanel } from './users-panel.tsx';

const TITLES = {
  'api-log': 'API log',
  channels: 'Browse channels',
  settings: 'Settings',
  admin: 'Organization administration',
  scheduled: 'Scheduled messages and reminders',
  drafts: 'Drafts',
  realm: 'Realm in this browser',
  users: 'Users',
} as const;

/** The panel beside the messages (over them on phones): settings, administration, channel browser, users, API log. */
export function SidePanel() {
  const { panel } = useChat();
  const which = panel.value;
  if (which === 'none') return null;
  return (
    <aside class="side-panel" aria-label={TITLES[which]}>
      <header class="panel-header">
        <h2>{TITLES[which]}</h2>
        <button type="button" class="icon-button" aria-label="Close panel" onClick={() => (panel.value = 'none')}>
          ✕
        </button>
      </header>
      <div class="panel-body">
        {which === 'api-log' && <ApiLogPanel />}
        {which === 'channels' && <ChannelBrowser />}
        {which === 'settings' && <SettingsPanel />}
        {which === 'admin' && <AdminPanel />}
        {which === 'scheduled' && <ScheduledPanel />}
        {which === 'drafts' && <DraftsPanel />}
        {which === 'realm' && <RealmToolsPanel />}
        {which === 'users' && <UsersPanel />}
      </div>
    </aside>
  );
}
