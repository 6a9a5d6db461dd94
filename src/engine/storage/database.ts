import { Dexie, type EntityTable, type Table } from 'dexie';
import { MessageIdCounter, messageIdMiddleware } from './message-id-counter.ts';
import { NewestReceived, newestReceivedMiddleware } from './newest-received.ts';
import { ReactedMessages, reactedMessagesMiddleware } from './reacted-messages.ts';
import { tableCacheMiddleware } from './table-cache.ts';
import { withoutLiveQueries } from './without-live-queries.ts';
import type {
  AttachmentRow,
  PushDeviceTokenRow,
  ChannelFolderRow,
  ChannelRow,
  CounterRow,
  CustomProfileFieldRow,
  InviteRow,
  MultiuseInviteRow,
  NavigationViewRow,
  DraftRow,
  AlertWordRow,
  MutedUserRow,
  UserStatusRow,
  OutgoingMailRow,
  PresenceRow,
  ProfileValueRow,
  SavedSnippetRow,
  ScheduledMessageRow,
  LinkifierRow,
  MessageRow,
  ReactionRow,
  RealmEmojiRow,
  RealmPlaygroundRow,
  RealmExportRow,
  ChannelEmailTokenRow,
  RealmRow,
  RecipientRow,
  SubscriptionRow,
  UserGroupRow,
  UserMessageRow,
  UserRow,
  UserTopicRow,
  SyncHubRow,
  SyncChangeRow,
  SyncClientRow,
  SyncMutationRow,
  SyncReplicaRow,
  SyncOutboxRow,
  SyncFileRow,
  SyncRefusalRow,
} from './rows.ts';

/**
 * A user's rows by message, by where the message is (mirroring the messages indexes a page walks,
 * so a page reads its flags as one range: `[user_id+stream_id+thread_key+message_id]` for a topic
 * or a direct conversation (`stream_id` 0), `[user_id+stream_id+message_id]` for a channel or all
 * direct messages, `[user_id+sender_id+message_id]` for a sender), everyone's rows of a message,
 * and the sparse flag indexes.
 */
export const USER_MESSAGES_INDEXES =
  '[user_id+message_id], message_id, [user_id+stream_id+thread_key+message_id], [user_id+stream_id+message_id], [user_id+sender_id+message_id], ' +
  '[user_id+unread+message_id], [user_id+starred+message_id], [user_id+mentioned+message_id], [user_id+alerted+message_id]';

export interface DatabaseOptions {
  name?: string;
  /** IndexedDB implementation (fake-indexeddb in Node, `indexedDB` in browsers). */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

/**
 * The realm's storage. Indexes follow the queries (see docs/ARCHITECTURE.md): a message page
 * walks one index in id order — channel+topic, channel, DM conversation, sender, or the
 * caller's sparse flag indexes — and never scans the messages table.
 */
export class RealmDatabase extends Dexie {
  realm!: EntityTable<RealmRow, 'id'>;
  users!: EntityTable<UserRow, 'id'>;
  channels!: EntityTable<ChannelRow, 'id'>;
  subscriptions!: Table<SubscriptionRow, [number, number]>;
  channel_folders!: EntityTable<ChannelFolderRow, 'id'>;
  messages!: EntityTable<MessageRow, 'id'>;
  user_messages!: Table<UserMessageRow, [number, number]>;
  reactions!: EntityTable<ReactionRow, 'key'>;
  /** Which messages may have reactions (see reacted-messages.ts). */
  readonly reactedMessages = new ReactedMessages();
  recipients!: EntityTable<RecipientRow, 'id'>;
  user_groups!: EntityTable<UserGroupRow, 'id'>;
  linkifiers!: EntityTable<LinkifierRow, 'id'>;
  realm_emoji!: EntityTable<RealmEmojiRow, 'id'>;
  user_topics!: Table<UserTopicRow, [number, number, string]>;
  counters!: EntityTable<CounterRow, 'name'>;
  custom_profile_fields!: EntityTable<CustomProfileFieldRow, 'id'>;
  profile_values!: Table<ProfileValueRow, [number, number]>;
  invites!: EntityTable<InviteRow, 'id'>;
  multiuse_invites!: EntityTable<MultiuseInviteRow, 'id'>;
  outgoing_mail!: EntityTable<OutgoingMailRow, 'id'>;
  navigation_views!: Table<NavigationViewRow, [number, string]>;
  saved_snippets!: EntityTable<SavedSnippetRow, 'id'>;
  drafts!: EntityTable<DraftRow, 'id'>;
  alert_words!: EntityTable<AlertWordRow, 'id'>;
  muted_users!: Table<MutedUserRow, [number, number]>;
  user_status!: EntityTable<UserStatusRow, 'user_id'>;
  scheduled_messages!: EntityTable<ScheduledMessageRow, 'id'>;
  presence!: EntityTable<PresenceRow, 'user_id'>;
  attachments!: EntityTable<AttachmentRow, 'id'>;
  realm_playgrounds!: EntityTable<RealmPlaygroundRow, 'id'>;
  realm_exports!: EntityTable<RealmExportRow, 'id'>;
  channel_email_tokens!: Table<ChannelEmailTokenRow, [number, number, number]>;
  push_device_tokens!: Table<PushDeviceTokenRow, [number, number, string]>;
  /** Sync (docs/SYNC.md): a hub's identity, change feed, replicas and their mutations. */
  sync_hub!: EntityTable<SyncHubRow, 'id'>;
  sync_changes!: EntityTable<SyncChangeRow, 'seq'>;
  sync_clients!: EntityTable<SyncClientRow, 'client_id'>;
  sync_mutations!: Table<SyncMutationRow, [string, number]>;
  /** Sync: a replica's checkpoint, outbox, refused changes and the files it fetched from its hub. */
  sync_replica!: EntityTable<SyncReplicaRow, 'id'>;
  sync_outbox!: EntityTable<SyncOutboxRow, 'mutation_id'>;
  sync_refusals!: EntityTable<SyncRefusalRow, 'mutation_id'>;
  sync_files!: EntityTable<SyncFileRow, 'path'>;
  /** The next message id, held for the sends of this instance (`message-ids.ts`). */
  readonly messageIds = new MessageIdCounter();
  /** Each user's newest received message id, while no flags row is written (`newest-received.ts`). */
  readonly newestReceived = new NewestReceived();

  constructor(options: DatabaseOptions = {}) {
    // Only implementations actually given are passed: an explicit `undefined` would override
    // Dexie's fallback to the global indexedDB of a browser or worker.
    super(options.name ?? 'offline-realm', {
      ...(options.indexedDB && { indexedDB: options.indexedDB }),
      ...(options.IDBKeyRange && { IDBKeyRange: options.IDBKeyRange }),
    });
    this.version(1).stores({
      realm: 'id',
      users: 'id, &email_key, &api_key',
      channels: 'id, &name_key, folder_id',
      subscriptions: '[user_id+channel_id], [channel_id+active], [user_id+active]',
      channel_folders: 'id, &name_key',
      messages: 'id, [stream_id+id], [stream_id+topic_key+id], [dm_key+id], [sender_id+id], *words',
      user_messages: USER_MESSAGES_INDEXES,
      reactions: 'key, message_id',
      recipients: 'id, &key',
      user_groups: 'id, &name_key',
      linkifiers: 'id',
      realm_emoji: 'id, name',
      user_topics: '[user_id+stream_id+topic_key], user_id',
      counters: 'name',
      custom_profile_fields: 'id',
      profile_values: '[user_id+field_id], field_id',
      invites: 'id, email_key',
      multiuse_invites: 'id',
      outgoing_mail: 'id',
      navigation_views: '[user_id+fragment], user_id',
      saved_snippets: 'id, user_id',
      drafts: 'id, user_id',
      alert_words: 'id, user_id',
      muted_users: '[user_id+muted_user_id], user_id, muted_user_id',
      user_status: 'user_id',
      scheduled_messages: 'id, user_id, [pending+scheduled_delivery_timestamp]',
      presence: 'user_id',
      attachments: 'id, &path_id, owner_id, *message_ids',
      realm_playgrounds: 'id',
      realm_exports: 'id, path_id',
      channel_email_tokens: '[channel_id+creator_id+sender_id]',
      push_device_tokens: '[user_id+kind+token], user_id',
      sync_hub: 'id',
      sync_changes: 'seq, message_id, [kind+entity_id]',
      sync_clients: 'client_id',
      sync_mutations: '[client_id+mutation_id], [client_id+provisional_id]',
      sync_replica: 'id',
      sync_outbox: 'mutation_id',
      sync_refusals: 'mutation_id',
      sync_files: 'path',
    });
    withoutLiveQueries(this);
    this.use(tableCacheMiddleware());
    this.use(messageIdMiddleware(this.messageIds));
    this.use(reactedMessagesMiddleware(this.reactedMessages));
    this.use(newestReceivedMiddleware(this.newestReceived));
  }

  /** Every table, for actions that may touch any of them and for export. */
  get allTables(): Table[] {
    return this.tables;
  }
}

/** Fixed first ids, so the same scenario file always gives the same ids (runtime contract 3). */
export const FIRST_USER_ID = 8;
export const FIRST_CHANNEL_ID = 1;
export const FIRST_MESSAGE_ID = 1;

/**
 * Hands out the next id of a kind inside the caller's transaction (no auto-increment keys). The
 * counter is read from storage every time: IndexedDB orders that read after every earlier write
 * transaction, which no copy held in memory can (docs/PERFORMANCE.md, "Requests per action").
 * Message ids, taken by every send, are held instead (`message-ids.ts`: `addNewMessage`).
 */
export async function nextId(db: RealmDatabase, name: string, first = 1): Promise<number> {
  const row = await db.counters.get(name);
  const id = row?.next ?? first;
  await db.counters.put({ name, next: id + 1 });
  return id;
}
