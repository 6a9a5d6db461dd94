import { generateApiKey, hashPassword } from '../auth/passwords.ts';
import { generateUrlKey } from '../auth/url-keys.ts';
import { sendMessage } from '../actions/send-message.ts';
import type { ActionScope } from '../services/action-scope.ts';
import type { EngineServices } from '../services/engine-services.ts';
import { asWriteInFlight } from '../services/run-action.ts';
import { withIndexColumns } from '../storage/flags.ts';
import { newSubscription } from '../settings/subscription-defaults.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { GROUP_ADMINISTRATORS, GROUP_EVERYONE, GROUP_FULL_MEMBERS, GROUP_MODERATORS, GROUP_NOBODY, SYSTEM_GROUPS } from '../permissions/system-groups.ts';
import { bindToTransaction } from '../storage/bound-database.ts';
import { FIRST_CHANNEL_ID, FIRST_MESSAGE_ID, FIRST_USER_ID, type RealmDatabase } from '../storage/database.ts';
import { type ChannelRow, FLAG_BITS, type RealmRow, type UserRow } from '../storage/rows.ts';
import { applyScenarioExtras } from './scenario-extras.ts';
import { checkScenarioReferences } from './scenario-references.ts';
import { parseScenario, type Scenario, ScenarioError } from './scenario-schema.ts';
import { ApiError } from '../errors/api-error.ts';
import { renderMessage } from '../markdown/render-message.ts';

const NOTIFICATION_BOT_ID = 1;
const WELCOME_BOT_ID = 2;

const POST_POLICY_GROUPS = { 1: GROUP_EVERYONE, 2: GROUP_ADMINISTRATORS, 3: GROUP_FULL_MEMBERS, 4: GROUP_MODERATORS } as const;

const CHANNEL_COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a'];

/**
 * Replaces the realm with the one `input` describes. The file is validated in full (schema,
 * then cross-references) before anything is written, and the realm is written in one
 * transaction: a faulty scenario changes nothing.
 */
export async function loadScenario(engine: EngineServices, input: unknown): Promise<void> {
  const scenario = parseScenario(input);
  checkScenarioReferences(scenario);
  // Hashing is slow and async outside IndexedDB, so it happens before the transaction opens.
  const hashes = await Promise.all(
    scenario.users.map((u) => (u.password ? hashPassword(u.password, engine.passwordIterations) : null)),
  );
  const now = engine.nowSeconds();
  await asWriteInFlight(engine.db, () => engine.db.transaction('rw', engine.db.tables, async (tx) => {
    const db = bindToTransaction(engine.db, tx);
    await Promise.all(engine.db.tables.map((table) => tx.table(table.name).clear()));
    await writeRealm(db, scenario, now);
    const users = await writeUsers(db, scenario, hashes, now);
    await writeGroups(db, now);
    const channels = await writeChannels(db, scenario, users, now);
    const directory = await RealmDirectory.load(db);
    await renderDescriptions(db, directory);
    const scope: ActionScope = { db, notify: () => undefined, queued: [], now };
    for (const [index, message] of scenario.messages.entries()) {
      const sender = users.get(message.sender)!;
      const { id } = await atPath(`$.messages[${index}]`, () => sendMessage(scope, directory, {
        sender,
        to: message.channel !== undefined
          ? { kind: 'channel', channel: { id: channels.get(message.channel.toLowerCase())!.id }, topic: message.topic }
          : { kind: 'direct', users: message.to!.map((email) => ({ id: users.get(email)!.id })) },
        content: message.content,
        client: 'website',
        readBySender: true,
        timestamp: message.timestamp ?? now - (scenario.messages.length - index) * 60,
      }));
      await markReadExceptUnread(db, id, message.unread_for.map((email) => users.get(email)!.id));
      await atPath(`$.messages[${index}]`, () => applyScenarioExtras(db, directory, scope, id, message, users));
    }
  }));
}

async function writeRealm(db: RealmDatabase, scenario: Scenario, now: number): Promise<void> {
  const { moderation_request_channel: _resolvedWithChannels, ...settings } = scenario.realm;
  const realm: RealmRow = {
    id: 1,
    ...settings,
    date_created: now,
    allow_message_editing: true,
    message_content_edit_limit_seconds: 600,
    move_messages_within_stream_limit_seconds: 604800,
    move_messages_between_streams_limit_seconds: 604800,
    message_content_delete_limit_seconds: null,
    allow_edit_history: true,
    message_retention_days: -1,
    notification_bot_id: NOTIFICATION_BOT_ID,
    default_channel_ids: [],
  };
  await db.realm.put(realm);
}

async function writeUsers(
  db: RealmDatabase,
  scenario: Scenario,
  hashes: (string | null)[],
  now: number,
): Promise<Map<string, UserRow>> {
  const host = scenario.realm.host;
  const systemBots: Array<Pick<UserRow, 'id' | 'email' | 'full_name'>> = [
    { id: NOTIFICATION_BOT_ID, email: `notification-bot@${host}`, full_name: 'Notification Bot' },
    { id: WELCOME_BOT_ID, email: `welcome-bot@${host}`, full_name: 'Welcome Bot' },
  ];
  let recipientId = 1;
  for (const bot of systemBots) {
    await db.users.add({
      ...bot,
      email_key: bot.email,
      role: 400,
      is_bot: true,
      is_system_bot: true,
      bot_type: 1,
      bot_owner_id: null,
      is_active: true,
      api_key: generateApiKey(),
      avatar_key: generateUrlKey(),
      password_hash: null,
      timezone: '',
      date_joined: now,
      avatar_version: 1,
      recipient_id: recipientId,
      settings: {},
    });
    await db.recipients.add({ id: recipientId, key: `user:${bot.id}` });
    recipientId++;
  }
  const byEmail = new Map<string, UserRow>();
  for (const [index, user] of scenario.users.entries()) {
    const id = FIRST_USER_ID + index;
    const row: UserRow = {
      id,
      email: user.email,
      email_key: user.email,
      full_name: user.full_name,
      role: user.role,
      is_bot: user.is_bot,
      is_system_bot: false,
      bot_type: user.is_bot ? (user.bot_type ?? 1) : null,
      bot_owner_id: null,
      is_active: true,
      api_key: user.api_key ?? generateApiKey(),
      avatar_key: generateUrlKey(),
      password_hash: hashes[index],
      timezone: user.timezone,
      date_joined: now,
      avatar_version: 1,
      recipient_id: recipientId,
      settings: {},
      ...(user.can_create_users ? { can_create_users: true } : {}),
      ...(user.can_change_user_emails ? { can_change_user_emails: true } : {}),
    };
    byEmail.set(user.email, row);
    await db.recipients.add({ id: recipientId, key: `user:${id}` });
    recipientId++;
  }
  for (const user of scenario.users) {
    if (user.bot_owner) byEmail.get(user.email)!.bot_owner_id = byEmail.get(user.bot_owner)!.id;
  }
  await db.users.bulkAdd([...byEmail.values()]);
  await db.counters.bulkPut([
    { name: 'user', next: FIRST_USER_ID + scenario.users.length },
    { name: 'recipient', next: recipientId },
    { name: 'message', next: FIRST_MESSAGE_ID },
  ]);
  return byEmail;
}

async function writeGroups(db: RealmDatabase, now: number): Promise<void> {
  await db.user_groups.bulkAdd(
    SYSTEM_GROUPS.map((group) => ({
      id: group.id,
      name: group.name,
      name_key: group.name,
      description: group.description,
      is_system_group: true,
      deactivated: false,
      date_created: now,
      creator_id: null,
      direct_members: [],
      direct_subgroup_ids: [],
      can_mention_group: GROUP_NOBODY,
    })),
  );
  await db.counters.put({ name: 'user_group', next: SYSTEM_GROUPS.length + 1 });
}

async function writeChannels(
  db: RealmDatabase,
  scenario: Scenario,
  users: Map<string, UserRow>,
  now: number,
): Promise<Map<string, ChannelRow>> {
  const folderIds = new Map<string, number>();
  for (const [index, folder] of scenario.channel_folders.entries()) {
    const id = index + 1;
    folderIds.set(folder.name.toLowerCase(), id);
    await db.channel_folders.add({
      id,
      name: folder.name,
      name_key: folder.name.toLowerCase(),
      description: folder.description,
      rendered_description: folder.description,
      order: index,
      date_created: now,
      creator_id: null,
      is_archived: false,
    });
  }
  await db.counters.put({ name: 'channel_folder', next: scenario.channel_folders.length + 1 });

  let recipientId = (await db.counters.get('recipient'))!.next;
  const channels = new Map<string, ChannelRow>();
  for (const [index, channel] of scenario.channels.entries()) {
    const id = FIRST_CHANNEL_ID + index;
    const row: ChannelRow = {
      id,
      name: channel.name,
      name_key: channel.name.toLowerCase(),
      description: channel.description,
      rendered_description: channel.description,
      date_created: now,
      creator_id: null,
      invite_only: channel.invite_only,
      is_web_public: false,
      history_public_to_subscribers: channel.history_public_to_subscribers ?? !channel.invite_only,
      message_retention_days: null,
      folder_id: channel.folder ? folderIds.get(channel.folder.toLowerCase())! : null,
      topics_policy: channel.topics_policy,
      is_archived: false,
      recipient_id: recipientId,
      first_message_id: null,
      can_send_message_group: POST_POLICY_GROUPS[channel.stream_post_policy],
      can_add_subscribers_group: GROUP_NOBODY,
      can_remove_subscribers_group: GROUP_ADMINISTRATORS,
      can_administer_channel_group: GROUP_NOBODY,
      can_delete_any_message_group: GROUP_NOBODY,
      can_delete_own_message_group: GROUP_NOBODY,
      can_move_messages_out_of_channel_group: GROUP_NOBODY,
      can_move_messages_within_channel_group: GROUP_NOBODY,
    };
    channels.set(row.name_key, row);
    await db.recipients.add({ id: recipientId, key: `channel:${id}` });
    recipientId++;
    await db.subscriptions.bulkAdd(
      [...new Set(channel.subscribers)].map((email) =>
        newSubscription(users.get(email)!.id, id, CHANNEL_COLORS[index % CHANNEL_COLORS.length]),
      ),
    );
  }
  await db.channels.bulkAdd([...channels.values()]);
  await db.counters.bulkPut([
    { name: 'recipient', next: recipientId },
    { name: 'channel', next: FIRST_CHANNEL_ID + scenario.channels.length },
  ]);
  const defaults = scenario.channels.filter((c) => c.is_default_stream).map((c) => channels.get(c.name.toLowerCase())!.id);
  const moderation = scenario.realm.moderation_request_channel;
  await db.realm.update(1, {
    default_channel_ids: defaults,
    ...(moderation === undefined ? {} : { moderation_request_channel_id: channels.get(moderation.toLowerCase())!.id }),
  });
  return channels;
}

/** Reports an API refusal while replaying a scenario as a fault at the message's JSON path. */
/**
 * Channel and folder descriptions are Markdown in the file and HTML in `rendered_description`,
 * rendered once the users and channels they may mention exist, as creating them by API does.
 */
async function renderDescriptions(db: RealmDatabase, directory: RealmDirectory): Promise<void> {
  const render = (markdown: string) => (markdown === '' ? '' : renderMessage(markdown, directory.markdownRealm()).html);
  for (const channel of await db.channels.toArray()) {
    await db.channels.update(channel.id, { rendered_description: render(channel.description) });
  }
  for (const folder of await db.channel_folders.toArray()) {
    await db.channel_folders.update(folder.id, { rendered_description: render(folder.description) });
  }
}

async function atPath<T>(path: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ApiError) throw new ScenarioError(path, error.message);
    throw error;
  }
}

/** Scenario history is read by everyone except the users listed in `unread_for`. */
async function markReadExceptUnread(db: RealmDatabase, messageId: number, unreadFor: number[]): Promise<void> {
  const rows = await db.user_messages.where('message_id').equals(messageId).toArray();
  await db.user_messages.bulkPut(
    rows.map((row) => {
      const read = !unreadFor.includes(row.user_id);
      return withIndexColumns({ ...row, flags: read ? row.flags | FLAG_BITS.read : row.flags & ~FLAG_BITS.read });
    }),
  );
}
