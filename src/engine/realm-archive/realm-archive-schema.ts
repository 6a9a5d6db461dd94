import { z } from 'zod';
import { MAX_CONFIGURABLE_UPLOAD_SIZE_MIB } from '../validation/upload-limits.ts';

/**
 * The realm archive file: every row of every table, as stored. Rows are checked column by
 * column against the shapes of storage/rows.ts; columns this version does not know are kept
 * (loose objects), so an archive never loses data on its way through the schema.
 */
export const ARCHIVE_FORMAT = 'offline-realm-archive';
export const ARCHIVE_VERSION = 1;

const id = z.int().positive();
const optionalId = id.nullable();
const seconds = z.int().nonnegative();
const limitSeconds = z.int().nonnegative().nullable();
const flag = z.literal(1).optional();
const role = z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]);
const topicsPolicy = z.enum(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only']);
const groupSetting = z.union([id, z.strictObject({ direct_members: z.array(id), direct_subgroups: z.array(id) })]);
const notify = z.boolean().nullable();

const realm = z.looseObject({
  id: z.literal(1),
  name: z.string(),
  host: z.string(),
  description: z.string(),
  date_created: seconds,
  empty_topic_display_name: z.string(),
  topics_policy: z.enum(['allow_empty_topic', 'disable_empty_topic']),
  email_address_visibility: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
  allow_message_editing: z.boolean(),
  message_content_edit_limit_seconds: limitSeconds,
  move_messages_within_stream_limit_seconds: limitSeconds,
  move_messages_between_streams_limit_seconds: limitSeconds,
  message_content_delete_limit_seconds: limitSeconds,
  allow_edit_history: z.boolean(),
  message_retention_days: z.int(),
  notification_bot_id: optionalId,
  default_channel_ids: z.array(id),
  new_stream_announcements_stream_id: optionalId.optional(),
  enable_spectator_access: z.boolean().optional(),
  can_move_messages_between_topics_group: groupSetting.optional(),
  can_move_messages_between_channels_group: groupSetting.optional(),
  can_resolve_topics_group: groupSetting.optional(),
  can_invite_users_group: groupSetting.optional(),
  create_multiuse_invite_group: groupSetting.optional(),
  can_create_public_channel_group: groupSetting.optional(),
  can_create_private_channel_group: groupSetting.optional(),
  can_delete_any_message_group: groupSetting.optional(),
  can_delete_own_message_group: groupSetting.optional(),
  max_file_upload_size_mib: z.int().nonnegative().max(MAX_CONFIGURABLE_UPLOAD_SIZE_MIB).optional(),
  user_settings_defaults: z.record(z.string(), z.unknown()).optional(),
  enable_dev_login: z.boolean().optional(),
  enable_read_receipts: z.boolean().optional(),
  moderation_request_channel_id: optionalId.optional(),
  default_code_block_language: z.string().optional(),
});

const user = z.looseObject({
  id,
  email: z.string().min(1),
  email_key: z.string().min(1),
  full_name: z.string(),
  role,
  is_bot: z.boolean(),
  is_system_bot: z.boolean(),
  bot_type: z.int().nullable(),
  bot_owner_id: optionalId,
  is_active: z.boolean(),
  api_key: z.string().min(1),
  password_hash: z.string().nullable(),
  timezone: z.string(),
  date_joined: seconds,
  avatar_version: z.int(),
  avatar_key: z.string().min(1).optional(),
  recipient_id: id,
  settings: z.record(z.string(), z.unknown()),
  can_create_users: z.boolean().optional(),
  can_change_user_emails: z.boolean().optional(),
});

const channel = z.looseObject({
  id,
  name: z.string(),
  name_key: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  date_created: seconds,
  creator_id: optionalId,
  invite_only: z.boolean(),
  is_web_public: z.boolean(),
  history_public_to_subscribers: z.boolean(),
  message_retention_days: z.int().nullable(),
  folder_id: optionalId,
  topics_policy: topicsPolicy,
  is_archived: z.boolean(),
  recipient_id: id,
  first_message_id: optionalId,
  can_send_message_group: groupSetting,
  can_add_subscribers_group: groupSetting,
  can_remove_subscribers_group: groupSetting,
  can_administer_channel_group: groupSetting,
  can_delete_any_message_group: groupSetting,
  can_delete_own_message_group: groupSetting,
  can_move_messages_out_of_channel_group: groupSetting,
  can_move_messages_within_channel_group: groupSetting,
});

const subscription = z.looseObject({
  user_id: id,
  channel_id: id,
  active: z.union([z.literal(0), z.literal(1)]),
  color: z.string(),
  is_muted: z.boolean(),
  pin_to_top: z.boolean(),
  desktop_notifications: notify,
  audible_notifications: notify,
  push_notifications: notify,
  email_notifications: notify,
  wildcard_mentions_notify: notify,
  first_message_id_seen: z.int().nonnegative(),
});

const channelFolder = z.looseObject({
  id,
  name: z.string(),
  name_key: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  order: z.int(),
  date_created: seconds,
  creator_id: optionalId,
  is_archived: z.boolean(),
});

const editHistoryEntry = z.looseObject({
  user_id: optionalId,
  timestamp: seconds,
  prev_content: z.string().optional(),
  prev_rendered_content: z.string().optional(),
  prev_stream: id.optional(),
  stream: id.optional(),
  prev_topic: z.string().optional(),
  topic: z.string().optional(),
});

const message = z.looseObject({
  id,
  sender_id: id,
  type: z.enum(['stream', 'private']),
  stream_id: id.optional(),
  topic: z.string(),
  topic_key: z.string().optional(),
  dm_key: z.string().optional(),
  recipient_id: id,
  content: z.string(),
  rendered_content: z.string(),
  timestamp: seconds,
  client: z.string(),
  is_me_message: z.boolean(),
  has_link: z.boolean(),
  has_image: z.boolean(),
  has_attachment: z.boolean(),
  last_edit_timestamp: seconds.optional(),
  last_moved_timestamp: seconds.optional(),
  edit_history: z.array(editHistoryEntry).optional(),
  words: z.array(z.string()),
  submessages: z.array(z.object({ id, sender_id: id, msg_type: z.string(), content: z.string() })).optional(),
});

/** The flags columns are derived again on import (archive-user-messages.ts); `dm` is older archives'. */
const userMessage = z.looseObject({
  user_id: id,
  message_id: id,
  flags: z.int().nonnegative(),
  unread: flag,
  starred: flag,
  mentioned: flag,
  dm: flag,
  alerted: flag,
});

const reaction = z.looseObject({
  key: z.string().min(1),
  message_id: id,
  user_id: id,
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.enum(['unicode_emoji', 'realm_emoji', 'service_extra_emoji']),
  seq: z.int(),
});

const recipient = z.looseObject({ id, key: z.string().min(1) });

const userGroup = z.looseObject({
  id,
  name: z.string(),
  name_key: z.string(),
  description: z.string(),
  is_system_group: z.boolean(),
  deactivated: z.boolean(),
  date_created: seconds,
  creator_id: optionalId,
  direct_members: z.array(id),
  direct_subgroup_ids: z.array(id),
  can_mention_group: groupSetting,
  can_add_members_group: groupSetting.optional(),
  can_join_group: groupSetting.optional(),
  can_leave_group: groupSetting.optional(),
  can_manage_group: groupSetting.optional(),
  can_remove_members_group: groupSetting.optional(),
});

const linkifier = z.looseObject({ id, pattern: z.string(), url_template: z.string(), order: z.int() });

const realmEmoji = z.looseObject({
  id,
  name: z.string(),
  source_url: z.string(),
  deactivated: z.boolean(),
  author_id: optionalId,
  path_id: z.string().optional(),
  content_type: z.string().optional(),
});

const realmPlayground = z.looseObject({
  id,
  name: z.string(),
  pygments_language: z.string(),
  url_template: z.string(),
});

const realmExport = z.looseObject({
  id,
  acting_user_id: id,
  export_type: z.union([z.literal(1), z.literal(2)]),
  export_time: z.number().nonnegative(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  path_id: z.string().nullable(),
  failed_timestamp: z.number().nullable(),
});

const channelEmailToken = z.looseObject({
  channel_id: id,
  creator_id: id,
  sender_id: z.int().nonnegative(),
  email_token: z.string().regex(/^[0-9a-f]{32}$/),
});

const userTopic = z.looseObject({
  user_id: id,
  stream_id: id,
  topic_key: z.string(),
  topic_name: z.string(),
  visibility_policy: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  last_updated: seconds,
});

const counter = z.looseObject({ name: z.string().min(1), next: z.int() });

const customProfileField = z.looseObject({
  id,
  name: z.string(),
  hint: z.string(),
  field_type: z.int().min(1).max(8),
  field_data: z.string(),
  order: z.int(),
  display_in_profile_summary: z.boolean(),
  required: z.boolean(),
  editable_by_user: z.boolean(),
});

const profileValue = z.looseObject({ user_id: id, field_id: id, value: z.string(), rendered_value: z.string().optional() });

const invite = z.looseObject({
  id,
  email: z.string().min(1),
  email_key: z.string().min(1),
  invited_by: id,
  invite_as: role,
  stream_ids: z.array(id),
  group_ids: z.array(id),
  include_realm_default_subscriptions: z.boolean(),
  notify_referrer_on_join: z.boolean(),
  welcome_message_custom_text: z.string().nullable(),
  invited_at: seconds,
  expires_at: seconds.nullable(),
  status: z.enum(['pending', 'accepted', 'revoked']),
  accepted_user_id: optionalId,
  confirmation_key: z.string().min(1),
});

const multiuseInvite = z.looseObject({
  id,
  invited_by: id,
  invite_as: role,
  stream_ids: z.array(id),
  group_ids: z.array(id),
  include_realm_default_subscriptions: z.boolean(),
  welcome_message_custom_text: z.string().nullable(),
  invited_at: seconds,
  expires_at: seconds.nullable(),
  status: z.enum(['active', 'revoked']),
  confirmation_key: z.string().min(1),
});

const outgoingMail = z.looseObject({
  id,
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  sent_at: seconds,
  kind: z.string(),
  invite_id: id.optional(),
});

const navigationView = z.looseObject({ user_id: id, fragment: z.string().min(1), is_pinned: z.boolean(), name: z.string().nullable() });

const savedSnippet = z.looseObject({ id, user_id: id, title: z.string(), content: z.string(), date_created: seconds });

const alertWord = z.looseObject({ id, user_id: id, word: z.string().min(1) });

const mutedUser = z.looseObject({ user_id: id, muted_user_id: id, date_muted: seconds });

const userStatus = z.looseObject({
  user_id: id,
  status_text: z.string(),
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.enum(['unicode_emoji', 'realm_emoji', 'service_extra_emoji']),
  timestamp: seconds,
});

const draft = z.looseObject({
  id,
  user_id: id,
  type: z.enum(['', 'stream', 'private']),
  to: z.array(id),
  topic: z.string(),
  content: z.string(),
  last_edit_time: z.number().nonnegative(),
});

const scheduledMessage = z.looseObject({
  id,
  user_id: id,
  type: z.enum(['stream', 'private']),
  to: z.union([id, z.array(id)]),
  topic: z.string(),
  content: z.string(),
  rendered_content: z.string(),
  scheduled_delivery_timestamp: seconds,
  failed: z.boolean(),
  failure_message: z.string().nullable(),
  pending: flag,
  reminder_target_message_id: optionalId,
  client: z.string().optional(),
  read_by_sender: z.boolean().optional(),
  reminder_note: z.string().optional(),
});

const presence = z.looseObject({ user_id: id, active_timestamp: seconds, idle_timestamp: seconds, last_update_id: z.int() });

const attachment = z.looseObject({
  id,
  path_id: z.string().min(1),
  file_name: z.string(),
  content_type: z.string(),
  size: z.int().nonnegative(),
  owner_id: id,
  create_time: seconds,
  message_ids: z.array(id),
});

const pushDeviceToken = z.looseObject({
  user_id: id,
  kind: z.union([z.literal(1), z.literal(2)]),
  token: z.string().min(1),
  ios_app_id: z.string().nullable(),
  last_updated: seconds,
});

/** One row schema per table of the database (storage/database.ts); the archive holds all of them. */
const syncHub = z.looseObject({ id: z.literal(1), hub_id: z.string().min(1), epoch: z.string().min(1) });
const journaledNotice = z.looseObject({
  event: z.looseObject({ type: z.string().min(1) }),
  users: z.array(id),
  per_user: z.array(z.tuple([id, z.record(z.string(), z.unknown())])).optional(),
  empty_topic_display_name: z.string().optional(),
});
const syncChange = z.looseObject({
  seq: id,
  kind: z.enum(['message', 'realm', 'user_topic', 'channel', 'user', 'tables']),
  message_id: id.optional(),
  entity_id: id.optional(),
  users: z.array(id).optional(),
  notices: z.array(journaledNotice).optional(),
});
const syncClient = z.looseObject({ client_id: z.string().min(1), user_id: id, last_mutation_id: z.int().nonnegative() });
const syncMutation = z.looseObject({
  client_id: z.string().min(1),
  mutation_id: id,
  outcome: z.enum(['applied', 'refused']),
  status: z.int(),
  body: z.record(z.string(), z.unknown()),
  provisional_id: id.optional(),
  final_id: id.optional(),
});
const syncReplica = z.looseObject({
  id: z.literal(1),
  hub_id: z.string().min(1),
  epoch: z.string().min(1),
  cursor: z.int().nonnegative(),
  client_id: z.string().min(1),
  next_mutation_id: id,
});
const syncOutbox = z.looseObject({
  mutation_id: id,
  method: z.string().min(1),
  path: z.string().min(1),
  params: z.record(z.string(), z.string()),
  state: z.enum(['pending', 'acked']),
  provisional_id: id.optional(),
  queue_id: z.string().optional(),
  local_id: z.string().optional(),
  final_id: id.optional(),
});
const syncRefusal = z.looseObject({
  mutation_id: id,
  method: z.string().min(1),
  path: z.string().min(1),
  status: z.int(),
  msg: z.string(),
  code: z.string(),
});

const syncFile = z.looseObject({
  path: z.string().min(1),
  path_id: z.string().min(1),
  headers: z.array(z.tuple([z.string(), z.string()])),
});

export const ARCHIVE_TABLES = {
  realm: z.array(realm).length(1, 'a realm archive holds exactly one realm row'),
  users: z.array(user),
  channels: z.array(channel),
  subscriptions: z.array(subscription),
  channel_folders: z.array(channelFolder),
  messages: z.array(message),
  user_messages: z.array(userMessage),
  reactions: z.array(reaction),
  recipients: z.array(recipient),
  user_groups: z.array(userGroup),
  linkifiers: z.array(linkifier),
  realm_emoji: z.array(realmEmoji),
  user_topics: z.array(userTopic),
  counters: z.array(counter),
  custom_profile_fields: z.array(customProfileField),
  profile_values: z.array(profileValue),
  invites: z.array(invite),
  outgoing_mail: z.array(outgoingMail),
  navigation_views: z.array(navigationView),
  saved_snippets: z.array(savedSnippet),
  drafts: z.array(draft),
  alert_words: z.array(alertWord),
  muted_users: z.array(mutedUser),
  user_status: z.array(userStatus),
  scheduled_messages: z.array(scheduledMessage),
  presence: z.array(presence),
  // Archives made before uploads existed have no such table. The files' bytes are not in the
  // archive (it stays JSON): an import keeps those the server already holds.
  attachments: z.array(attachment).default([]),
  realm_playgrounds: z.array(realmPlayground).default([]),
  realm_exports: z.array(realmExport).default([]),
  channel_email_tokens: z.array(channelEmailToken).default([]),
  // Archives made before push devices were stored have no such table.
  push_device_tokens: z.array(pushDeviceToken).default([]),
  // Archives made before reusable invitation links existed have no such table.
  multiuse_invites: z.array(multiuseInvite).default([]),
  // Sync state (docs/SYNC.md); archives made before sync have none.
  sync_hub: z.array(syncHub).max(1).default([]),
  sync_changes: z.array(syncChange).default([]),
  sync_clients: z.array(syncClient).default([]),
  sync_mutations: z.array(syncMutation).default([]),
  sync_replica: z.array(syncReplica).max(1).default([]),
  sync_outbox: z.array(syncOutbox).default([]),
  sync_refusals: z.array(syncRefusal).default([]),
  sync_files: z.array(syncFile).default([]),
};

/** Checked first, on its own: an archive of another format or version is refused by name. */
export const archiveEnvelope = z.looseObject({
  format: z.literal(ARCHIVE_FORMAT, `not an Offline Realm archive ("format" must be "${ARCHIVE_FORMAT}")`),
  version: z.literal(ARCHIVE_VERSION, `unsupported archive version (this server reads version ${ARCHIVE_VERSION})`),
});

export const realmArchiveSchema = z.strictObject({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  exported_at: z.iso.datetime(),
  tables: z.strictObject(ARCHIVE_TABLES),
});

export type RealmArchive = z.output<typeof realmArchiveSchema>;
