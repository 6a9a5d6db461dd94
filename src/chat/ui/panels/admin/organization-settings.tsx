import { useSignal } from '@preact/signals';
import type { RealmGroupSetting } from '../../../state/group-permissions.ts';
import { useChat } from '../../chat-context.ts';
import { attempt, notify } from '../../notices.ts';

/** The role groups a setting is usually given to, as upstream's settings page names them. */
const ROLE_GROUPS: [string, string][] = [
  ['role:everyone', 'Everyone'],
  ['role:members', 'Members'],
  ['role:fullmembers', 'Full members'],
  ['role:moderators', 'Moderators'],
  ['role:administrators', 'Administrators'],
  ['role:owners', 'Owners'],
  ['role:nobody', 'Nobody'],
];

/**
 * The permission settings this server stores and enforces that decide what the app offers, and
 * whether Everyone (guests included) may hold each: upstream's settings page offers it only where
 * its server accepts it.
 */
const GROUP_SETTINGS: [RealmGroupSetting, string, { everyone: boolean }][] = [
  ['can_resolve_topics_group', 'Who can resolve topics', { everyone: true }],
  ['can_move_messages_between_topics_group', 'Who can move messages to another topic', { everyone: true }],
  ['can_move_messages_between_channels_group', 'Who can move messages to another channel', { everyone: false }],
  ['can_create_public_channel_group', 'Who can create public channels', { everyone: false }],
  ['can_create_private_channel_group', 'Who can create private channels', { everyone: false }],
];

/** Languages the server colours, for code blocks that name none (upstream's Pygments aliases). */
const CODE_LANGUAGES: [string, string][] = [
  ['bash', 'Bash'], ['c', 'C'], ['cpp', 'C++'], ['csharp', 'C#'], ['css', 'CSS'], ['diff', 'Diff'], ['go', 'Go'],
  ['haskell', 'Haskell'], ['html', 'HTML'], ['java', 'Java'], ['javascript', 'JavaScript'], ['json', 'JSON'],
  ['kotlin', 'Kotlin'], ['lua', 'Lua'], ['markdown', 'Markdown'], ['php', 'PHP'], ['python', 'Python'],
  ['ruby', 'Ruby'], ['rust', 'Rust'], ['scala', 'Scala'], ['sql', 'SQL'], ['swift', 'Swift'], ['text', 'Text only'],
  ['typescript', 'TypeScript'], ['yaml', 'YAML'],
];

/**
 * The organization's name, its switches (message editing, edit history, read receipts), the
 * default language of code blocks and who
 * may resolve and move messages and create channels, each saved by `PATCH /realm` as it changes; the values shown are the
 * server's, kept by its events.
 */
export function OrganizationSettings() {
  const { session } = useChat();
  const realm = session.realm;
  const name = useSignal(realm.realmName.value);
  // A refused change leaves the server's value: drawn again, the control shows it once more.
  const refusals = useSignal(0);
  const save = async (what: string, params: Record<string, unknown>): Promise<boolean> => {
    const done = await attempt(`Could not save ${what}`, () => session.api.patch('/realm', params as Record<string, string>));
    if (!done) refusals.value += 1;
    return done;
  };
  void refusals.value;
  const flags = realm.realmFlags.value;
  const switches: [string, string, boolean][] = [
    ['allow_message_editing', 'Allow editing messages', realm.limits.value.allowEditing],
    ['allow_edit_history', 'Show the edit history of messages', flags.allowEditHistory],
    ['enable_read_receipts', 'Read receipts (who has read a message)', flags.readReceipts],
  ];
  const groups = [...realm.groupPermissions.groups.value];
  // Roles' groups by upstream's names, then the organization's own groups.
  const choices = [
    ...ROLE_GROUPS.flatMap(([groupName, label]) => {
      const found = groups.find(([, group]) => group.system && group.name === groupName);
      return found ? [{ id: found[0], label, everyone: groupName === 'role:everyone' }] : [];
    }),
    ...groups
      .filter(([, group]) => !group.system)
      .sort(([, a], [, b]) => a.name.localeCompare(b.name))
      .map(([id, group]) => ({ id, label: `@${group.name}`, everyone: false })),
  ];
  return (
    <section aria-labelledby="organization-settings">
      <h3 id="organization-settings">Organization settings</h3>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save('the name', { name: name.value.trim() }).then((done) => done && notify('Organization name saved.'));
        }}
      >
        <label>
          Organization name
          <input value={name.value} onInput={(event) => (name.value = event.currentTarget.value)} />
        </label>
        <button type="submit">Save name</button>
      </form>
      {switches.map(([property, label, on]) => (
        <label key={property} class="checkbox">
          <input type="checkbox" checked={on} onChange={(event) => void save(label.toLowerCase(), { [property]: event.currentTarget.checked })} />
          {label}
        </label>
      ))}
      <label class="stacked">
        Default language for code blocks
        <select
          value={realm.defaultCodeLanguage.value}
          onChange={(event) => void save('the default language for code blocks', { default_code_block_language: event.currentTarget.value })}
        >
          <option value="">No default</option>
          {/* A language set elsewhere (by the API) that this list lacks still shows as chosen. */}
          {realm.defaultCodeLanguage.value !== '' && !CODE_LANGUAGES.some(([alias]) => alias === realm.defaultCodeLanguage.value) && (
            <option value={realm.defaultCodeLanguage.value}>{realm.defaultCodeLanguage.value}</option>
          )}
          {CODE_LANGUAGES.map(([alias, label]) => (
            <option key={alias} value={alias}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {GROUP_SETTINGS.map(([setting, label, allows]) => {
        const value = realm.groupPermissions.settings.value[setting];
        return (
          <label key={setting} class="stacked">
            {label}
            <select
              value={typeof value === 'number' ? value : 'custom'}
              onChange={(event) => void save(label.toLowerCase(), { [setting]: { new: Number(event.currentTarget.value) } })}
            >
              {typeof value !== 'number' && (
                <option value="custom" disabled>
                  A custom group
                </option>
              )}
              {choices.filter((group) => allows.everyone || !group.everyone || group.id === value).map((group) => (
                <option key={group.id} value={group.id}>
                  {group.label}
                </option>
              ))}
            </select>
          </label>
        );
      })}
    </section>
  );
}
