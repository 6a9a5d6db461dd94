import { useSignal } from '@preact/signals';
import type { Subscription } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import { useCommittedChange } from '../committed-change.ts';
import { attempt, notify } from '../notices.ts';
import { CustomEmoji } from './custom-emoji.tsx';
import { MutedUsers } from './muted-users.tsx';
import { MyProfileFields } from './my-profile-fields.tsx';
import { RemovableRow } from '../removable-row.tsx';
import { setSubscriptionProperty } from '../subscription-operations.ts';

const COLOR_SCHEMES = [
  { value: 1, label: 'Automatic (follow the system)' },
  { value: 3, label: 'Light' },
  { value: 2, label: 'Dark' },
];

/** Upstream's home views: where Esc goes (the address with no view stays the combined feed, runtime contract 5). */
const HOME_VIEWS = [
  { value: 'inbox', label: 'Inbox' },
  { value: 'recent_topics', label: 'Recent conversations' },
  { value: 'all_messages', label: 'Combined feed' },
];

/** My settings that the server keeps (name, profile fields, timezone, theme, keys, time format) and each subscription's. */
export function SettingsPanel() {
  return (
    <div class="settings">
      <PersonalSettings />
      <NotificationSettings />
      <AlertWords />
      <MutedUsers />
      <CustomEmoji />
      <SubscriptionSettings />
    </div>
  );
}

function PersonalSettings() {
  const { session } = useChat();
  const realm = session.realm;
  const settings = realm.settings.value;
  const switches: [string, string, boolean][] = [
    ['web_escape_navigates_to_home_view', 'Escape key navigates to home view', settings.web_escape_navigates_to_home_view !== false],
    ['enter_sends', 'Enter sends the message (Shift+Enter for a new line)', settings.enter_sends],
    ['twenty_four_hour_time', '24-hour time', settings.twenty_four_hour_time],
    ['translate_emoticons', 'Convert emoticons before sending (:) becomes 🙂)', settings.translate_emoticons === true],
    // Upstream's "Display availability to other users": off, the server keeps no presence for me.
    ['presence_enabled', 'Let others see when I am online', settings.presence_enabled !== false],
  ];
  const fullName = useSignal(realm.meUser.value?.full_name ?? '');
  const timezone = useSignal(settings.timezone);
  const save = (property: string, value: unknown) =>
    attempt('Could not save the setting', () => session.api.patch('/settings', { [property]: value } as Record<string, string>));
  const zones = Intl.supportedValuesOf('timeZone');
  return (
    <section aria-labelledby="personal-settings">
      <h3 id="personal-settings">Profile and preferences</h3>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save('full_name', fullName.value.trim()).then((done) => done && notify('Name saved.'));
        }}
      >
        <label>
          Display name
          <input value={fullName.value} onInput={(event) => (fullName.value = event.currentTarget.value)} />
        </label>
        <button type="submit">Save name</button>
      </form>
      <MyProfileFields />
      <label class="stacked">
        Time zone
        <select
          value={timezone.value}
          onChange={(event) => {
            timezone.value = event.currentTarget.value;
            void save('timezone', timezone.value);
          }}
        >
          {!zones.includes(timezone.value) && <option value={timezone.value}>{timezone.value || '(not set)'}</option>}
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </label>
      <label class="stacked">
        Theme
        <select value={settings.color_scheme} onChange={(event) => void save('color_scheme', Number(event.currentTarget.value))}>
          {COLOR_SCHEMES.map((scheme) => (
            <option key={scheme.value} value={scheme.value}>
              {scheme.label}
            </option>
          ))}
        </select>
      </label>
      <label class="stacked">
        Home view
        <select value={String(settings.web_home_view ?? 'inbox')} onChange={(event) => void save('web_home_view', event.currentTarget.value)}>
          {HOME_VIEWS.map((view) => (
            <option key={view.value} value={view.value}>
              {view.label}
            </option>
          ))}
        </select>
      </label>
      {switches.map(([property, label, on]) => (
        <label key={property} class="checkbox">
          <input type="checkbox" checked={on} onChange={(event) => void save(property, event.currentTarget.checked)} />
          {label}
        </label>
      ))}
    </section>
  );
}

/**
 * Desktop notifications: the browser's permission (asked for only when the person chooses to),
 * and upstream's two switches, kept by the server: DMs and mentions, and channel messages.
 */
function NotificationSettings() {
  const { session } = useChat();
  const settings = session.realm.settings.value;
  const supported = typeof Notification !== 'undefined';
  const permission = useSignal(supported ? Notification.permission : 'denied');
  const save = (property: string, value: boolean) =>
    attempt('Could not save the setting', () => session.api.patch('/settings', { [property]: value } as unknown as Record<string, string>));
  return (
    <section aria-labelledby="notification-settings">
      <h3 id="notification-settings">Desktop notifications</h3>
      {!supported && <p class="hint">This browser cannot show notifications.</p>}
      {supported && permission.value === 'default' && (
        <button type="button" onClick={() => void Notification.requestPermission().then((answer) => (permission.value = answer))}>
          Enable desktop notifications
        </button>
      )}
      {supported && permission.value === 'denied' && <p class="hint">Notifications are blocked for this site in the browser's settings.</p>}
      {supported && permission.value === 'granted' && <p class="hint">This browser shows notifications for this site.</p>}
      <label class="checkbox">
        <input type="checkbox" checked={settings.enable_desktop_notifications !== false} onChange={(event) => void save('enable_desktop_notifications', event.currentTarget.checked)} />
        Direct messages and mentions
      </label>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={settings.enable_stream_desktop_notifications === true}
          onChange={(event) => void save('enable_stream_desktop_notifications', event.currentTarget.checked)}
        />
        Channel messages (each channel can also choose, below)
      </label>
    </section>
  );
}

/** Upstream's alert words: a message containing one alerts me as a mention does. */
function AlertWords() {
  const { session } = useChat();
  const words = session.realm.alertWords.value;
  const adding = useSignal('');
  const add = async (): Promise<void> => {
    const word = adding.value.trim();
    if (!word) return;
    if (await attempt('Could not add the alert word', () => session.api.post('/users/me/alert_words', { alert_words: [word] }))) adding.value = '';
  };
  return (
    <section aria-labelledby="alert-words">
      <h3 id="alert-words">Alert words</h3>
      <p class="hint">A message with one of these words alerts you as a mention does.</p>
      <ul class="admin-list" aria-label="Alert words">
        {words.map((word) => (
          <RemovableRow
            key={word}
            action="Remove"
            label={`Remove the alert word ${word}`}
            onRemove={() => void attempt('Could not remove the alert word', () => session.api.delete('/users/me/alert_words', { alert_words: [word] }))}
          >
            {word}
          </RemovableRow>
        ))}
      </ul>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <label>
          New alert word
          <input value={adding.value} maxLength={100} onInput={(event) => (adding.value = event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={!adding.value.trim()}>
          Add
        </button>
      </form>
    </section>
  );
}

function SubscriptionSettings() {
  const { session } = useChat();
  const subs = [...session.realm.subscriptions.value.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section aria-labelledby="subscription-settings">
      <h3 id="subscription-settings">Channels</h3>
      <ul class="subscription-settings">
        {subs.map((sub) => (
          <SubscriptionRow key={sub.stream_id} sub={sub} />
        ))}
      </ul>
    </section>
  );
}

function SubscriptionRow({ sub }: { sub: Subscription }) {
  const { session } = useChat();
  const set = (property: string, value: unknown) => setSubscriptionProperty(session, sub, property, value);
  const colorPicked = useCommittedChange<HTMLInputElement>((color) => void set('color', color));
  return (
    <li>
      <fieldset>
        <legend>#{sub.name}</legend>
        <label class="inline">
          Color
          {/* Sent once the picker closes, not for every colour passed while dragging. */}
          <input ref={colorPicked} type="color" value={sub.color} />
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={sub.is_muted} onChange={(event) => void set('is_muted', event.currentTarget.checked)} />
          Muted
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={sub.pin_to_top} onChange={(event) => void set('pin_to_top', event.currentTarget.checked)} />
          Pinned
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={sub.desktop_notifications ?? false} onChange={(event) => void set('desktop_notifications', event.currentTarget.checked)} />
          Desktop notifications
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={sub.email_notifications ?? false} onChange={(event) => void set('email_notifications', event.currentTarget.checked)} />
          Email notifications
        </label>
      </fieldset>
    </li>
  );
}
