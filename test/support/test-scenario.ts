/**
 * The test realm's data and the clients' parameter encoding, free of engine imports so the
 * browser tests can share them without bundling the engine into the test page.
 */

/** A small realm covering every role, public, private and announcement channels. */
export const TEST_SCENARIO = {
  realm: { name: 'Test Realm', host: 'zulip.test', email_address_visibility: 1 },
  users: [
    { email: 'olivia@zulip.test', full_name: 'Olivia Owner', role: 100, password: 'olivia-pass', api_key: 'OwnerKey000000000000000000000001', can_create_users: true },
    { email: 'adam@zulip.test', full_name: 'Adam Admin', role: 200, password: 'adam-pass', api_key: 'AdminKey000000000000000000000002' },
    { email: 'mona@zulip.test', full_name: 'Mona Moderator', role: 300, api_key: 'ModKey00000000000000000000000003' },
    { email: 'mark@zulip.test', full_name: 'Mark Member', role: 400, password: 'mark-pass', api_key: 'MarkKey0000000000000000000000004' },
    { email: 'mia@zulip.test', full_name: 'Mia Member', role: 400, api_key: 'MiaKey00000000000000000000000005' },
    { email: 'gail@zulip.test', full_name: 'Gail Guest', role: 600, api_key: 'GuestKey000000000000000000000006' },
    { email: 'bot@zulip.test', full_name: 'Test Bot', role: 400, is_bot: true, bot_type: 1, bot_owner: 'mark@zulip.test', api_key: 'BotKey00000000000000000000000007' },
  ],
  channel_folders: [{ name: 'Work', description: 'Work channels' }],
  channels: [
    {
      name: 'general',
      description: 'Everyone',
      folder: 'Work',
      subscribers: ['olivia@zulip.test', 'adam@zulip.test', 'mona@zulip.test', 'mark@zulip.test', 'mia@zulip.test', 'gail@zulip.test', 'bot@zulip.test'],
      is_default_stream: true,
    },
    { name: 'design', description: 'Design talk', subscribers: ['olivia@zulip.test', 'mark@zulip.test'] },
    { name: 'secret', description: 'Private', invite_only: true, subscribers: ['olivia@zulip.test', 'mark@zulip.test'] },
    { name: 'announce', description: 'Announcements', subscribers: ['olivia@zulip.test', 'adam@zulip.test', 'mark@zulip.test'], stream_post_policy: 2 },
    { name: 'strict', description: 'Topics required', subscribers: ['olivia@zulip.test', 'mark@zulip.test'], topics_policy: 'disable_empty_topic' },
  ],
  messages: [
    { sender: 'olivia@zulip.test', channel: 'general', topic: 'welcome', content: 'Welcome **everyone**', timestamp: 1767225000 },
    { sender: 'mark@zulip.test', channel: 'general', topic: 'welcome', content: 'Thanks @**Olivia Owner**', timestamp: 1767225060 },
    { sender: 'mark@zulip.test', channel: 'secret', topic: 'plans', content: 'secret plans', timestamp: 1767225120 },
    { sender: 'olivia@zulip.test', to: ['mark@zulip.test'], content: 'a direct hello', timestamp: 1767225180 },
  ],
} as const;

/** The ids the scenario gives (users from 8, channels from 1, messages from 1, in file order). */
export const IDS = {
  olivia: 8,
  adam: 9,
  mona: 10,
  mark: 11,
  mia: 12,
  gail: 13,
  bot: 14,
  general: 1,
  design: 2,
  secret: 3,
  announce: 4,
  strict: 5,
} as const;

export type TestUser = Exclude<keyof typeof IDS, 'general' | 'design' | 'secret' | 'announce' | 'strict'>;

/** Form-encodes parameters as real clients do: strings raw, everything else as JSON. */
export function encodeParams(params: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

/** The API user object (spec 2.2) of an active human member with no profile data. */
export function expectedMember(user: {
  user_id: number;
  email: string;
  full_name: string;
  date_joined: unknown;
  avatar_url: unknown;
}): Record<string, unknown> {
  return {
    user_id: user.user_id,
    delivery_email: user.email,
    email: user.email,
    full_name: user.full_name,
    date_joined: user.date_joined,
    is_active: true,
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_billing_admin: false,
    is_bot: false,
    bot_type: null,
    role: 400,
    timezone: '',
    avatar_version: 1,
    avatar_url: user.avatar_url,
    profile_data: {},
  };
}
