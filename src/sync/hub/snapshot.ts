import { Dexie } from 'dexie';
import { generateApiKey } from '../../engine/auth/passwords.ts';
import { apiEmail } from '../../engine/permissions/email-visibility.ts';
import { canSeeChannelMetadata, canSeeSubscribers } from '../../engine/permissions/channel-visibility.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { RealmRow, UserRow } from '../../engine/storage/rows.ts';
import { currentSeq } from './hub-identity.ts';

/** Realm-wide tables every member's engine needs whole (nothing in them is secret). */
const SHARED_TABLES = [
  'recipients',
  'user_groups',
  'linkifiers',
  'realm_emoji',
  'channel_folders',
  'custom_profile_fields',
  'profile_values',
  'realm_playgrounds',
  'user_status',
  'presence',
] as const;

/** Personal tables: a replica gets its user's own rows (the index that finds them). */
const OWN_ROWS = {
  user_topics: 'user_id',
  navigation_views: 'user_id',
  saved_snippets: 'user_id',
  drafts: 'user_id',
  alert_words: 'user_id',
  muted_users: 'user_id',
  scheduled_messages: 'user_id',
  attachments: 'owner_id',
  push_device_tokens: 'user_id',
} as const;

/**
 * One user's view of the realm, for a replica to run its engine on (docs/SYNC.md), read in the
 * caller's snapshot transaction with the change cursor it is consistent with. Never sent:
 * invitations, outgoing mail, exports, channel email tokens, counters, the hub's sync tables,
 * other users' API keys, password hashes and hidden emails.
 */
export async function userSnapshot(db: RealmDatabase, caller: UserRow): Promise<{ cursor: number; tables: Record<string, unknown[]> }> {
  const realm = (await db.realm.get(1)) as RealmRow;
  const tables: Record<string, unknown[]> = { realm: [realm] };
  tables.users = (await db.users.toArray()).map((user) => (user.id === caller.id ? user : asSeenBy(realm, caller, user)));

  const own = await db.subscriptions.where('[user_id+active]').equals([caller.id, 1]).toArray();
  const subscribed = new Set(own.map((s) => s.channel_id));
  const channels = (await db.channels.toArray()).filter((c) => canSeeChannelMetadata(caller, c, subscribed.has(c.id)));
  tables.channels = channels;
  const subscribersVisible = new Set(channels.filter((c) => canSeeSubscribers(caller, c, subscribed.has(c.id))).map((c) => c.id));
  tables.subscriptions = (await db.subscriptions.toArray()).filter(
    (s) => s.user_id === caller.id || subscribersVisible.has(s.channel_id),
  );

  const userMessages = await db.user_messages
    .where('[user_id+message_id]')
    .between([caller.id, Dexie.minKey], [caller.id, Dexie.maxKey])
    .toArray();
  const messageIds = userMessages.map((um) => um.message_id);
  tables.user_messages = userMessages;
  tables.messages = (await db.messages.bulkGet(messageIds)).filter((m) => m !== undefined);
  tables.reactions = await db.reactions.where('message_id').anyOf(messageIds).toArray();

  for (const name of SHARED_TABLES) tables[name] = await db.table(name).toArray();
  for (const [name, index] of Object.entries(OWN_ROWS)) tables[name] = await db.table(name).where(index).equals(caller.id).toArray();
  return { cursor: await currentSeq(db), tables };
}

/** Another user as the caller may know them: no credentials or personal settings, the email the caller may see. */
function asSeenBy(realm: RealmRow, caller: UserRow, user: UserRow): UserRow {
  const email = apiEmail(realm, caller, user);
  return { ...user, email, email_key: email.toLowerCase(), api_key: generateApiKey(), password_hash: null, settings: {} };
}
