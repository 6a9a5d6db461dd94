/**
 * The shapes stored in IndexedDB. Booleans that must be queried through an index are stored
 * as the number 1 and left out otherwise: IndexedDB cannot index booleans, and a compound
 * index skips rows missing a part, which keeps such indexes sparse (only unread rows, ...).
 */

export type Role = 100 | 200 | 300 | 400 | 600;
export const ROLE_OWNER = 100;
export const ROLE_ADMIN = 200;
export const ROLE_MODERATOR = 300;
export const ROLE_MEMBER = 400;
export const ROLE_GUEST = 600;

export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export interface RealmRow {
  id: 1;
  name: string;
  host: string;
  description: string;
  date_created: number;
  empty_topic_display_name: string;
  /** Realm-level policy; `inherit` is not a realm value. */
  topics_policy: Exclude<TopicsPolicy, 'inherit' | 'empty_topic_only'>;
  email_address_visibility: 1 | 2 | 3 | 4 | 5;
  allow_message_editing: boolean;
  /** null: no limit. */
  message_content_edit_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  message_content_delete_limit_seconds: number | null;
  allow_edit_history: boolean;
  message_retention_days: number;
  /** The notification bot's user id, used for automated messages. */
  notification_bot_id: number | null;
  /** Channels new users join (default channels). */
  default_channel_ids: number[];
  /** Where the notification bot announces new channels; absent: the first default channel, as a new realm has it; null: nowhere. */
  new_stream_announcements_stream_id?: number | null;
  /** Whether spectators may read web-public channels, so that such channels may exist; absent: false. */
  enable_spectator_access?: boolean;
  /** Who may move messages between topics / channels; absent: upstream's defaults (everyone / members). */
  can_move_messages_between_topics_group?: GroupSettingValue;
  can_move_messages_between_channels_group?: GroupSettingValue;
  /** Who may resolve and unresolve topics; absent: upstream's default (everyone). */
  can_resolve_topics_group?: GroupSettingValue;
  /** Who may send invitations; absent: upstream's default (members). */
  can_invite_users_group?: GroupSettingValue;
  /** Who may create reusable invitation links; absent: upstream's default (administrators). */
  create_multiuse_invite_group?: GroupSettingValue;
  /** Who may delete anyone's messages / their own; absent: upstream's defaults (administrators / everyone). */
  can_delete_any_message_group?: GroupSettingValue;
  can_delete_own_message_group?: GroupSettingValue;
  /** Who may create public / private channels; absent: upstream's defaults (members). */
  can_create_public_channel_group?: GroupSettingValue;
  can_create_private_channel_group?: GroupSettingValue;
  /** The largest file an upload may be, in MiB; absent: upstream's default (25). */
  max_file_upload_size_mib?: number;
  /** Personal settings new accounts start with, where the organization changed upstream's default; absent: none changed. */
  user_settings_defaults?: Record<string, unknown>;
  /** Whether POST /dev_fetch_api_key logs in by email alone, as upstream's development server; absent: false. */
  enable_dev_login?: boolean;
  /** Whether members may see who read a message; absent: false, upstream's model default. */
  enable_read_receipts?: boolean;
  /** Where message reports go (upstream's moderation_request_channel); absent or null: reporting is off. */
  moderation_request_channel_id?: number | null;
  /** The language of a fenced code block that names none (upstream's Pygments alias); absent or empty: none. */
  default_code_block_language?: string;
}

export interface UserRow {
  id: number;
  /** The real ("delivery") email. */
  email: string;
  /** Lower-cased email, unique. */
  email_key: string;
  full_name: string;
  role: Role;
  is_bot: boolean;
  /** Built-in bots such as Notification Bot: not realm members, listed as cross-realm bots. */
  is_system_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_active: boolean;
  api_key: string;
  /** `pbkdf2-sha256$iterations$salt$hash`, base64 parts; null when no password is set. */
  password_hash: string | null;
  timezone: string;
  date_joined: number;
  avatar_version: number;
  /** In the user's avatar URLs, which an `<img>` loads without credentials; absent on rows older than it (their avatars then need authentication). */
  avatar_key?: string;
  /** The personal recipient, used as a 1:1 conversation's `recipient_id`. */
  recipient_id: number;
  /** Per-user settings (user_settings object); defaults fill missing keys. */
  settings: Record<string, unknown>;
  /** Upstream's `can_create_users`, granted outside the API (a scenario here); absent: false. */
  can_create_users?: boolean;
  /** Upstream's special permission to change other users' emails (granted by a server administrator); absent: false. */
  can_change_user_emails?: boolean;
}

export interface ChannelRow {
  id: number;
  name: string;
  name_key: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  /** null: inherit the realm's. */
  message_retention_days: number | null;
  folder_id: number | null;
  topics_policy: TopicsPolicy;
  is_archived: boolean;
  recipient_id: number;
  first_message_id: number | null;
  /** Group-setting values (an integer group id, or direct members and subgroups). */
  can_send_message_group: GroupSettingValue;
  can_add_subscribers_group: GroupSettingValue;
  can_remove_subscribers_group: GroupSettingValue;
  can_administer_channel_group: GroupSettingValue;
  can_delete_any_message_group: GroupSettingValue;
  can_delete_own_message_group: GroupSettingValue;
  can_move_messages_out_of_channel_group: GroupSettingValue;
  can_move_messages_within_channel_group: GroupSettingValue;
}

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface SubscriptionRow {
  user_id: number;
  channel_id: number;
  /** 1 while subscribed; 0 after unsubscribing (the row keeps the user's settings). */
  active: 0 | 1;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  /** Messages sent before this id are "history" for the user. */
  first_message_id_seen: number;
}

export interface ChannelFolderRow {
  id: number;
  name: string;
  name_key: string;
  description: string;
  rendered_description: string;
  order: number;
  date_created: number;
  creator_id: number | null;
  is_archived: boolean;
}

export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

export interface MessageRow {
  id: number;
  sender_id: number;
  type: 'stream' | 'private';
  /** Channel messages only. */
  stream_id?: number;
  topic: string;
  /** Lower-cased topic, channel messages only: topic matching is case-insensitive. */
  topic_key?: string;
  /** Direct messages only: the sorted participant ids joined by commas (self included). */
  dm_key?: string;
  recipient_id: number;
  content: string;
  rendered_content: string;
  timestamp: number;
  client: string;
  is_me_message: boolean;
  has_link: boolean;
  has_image: boolean;
  has_attachment: boolean;
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  /** Newest first, as the API returns it. */
  edit_history?: EditHistoryEntry[];
  /** Lower-cased words of content and topic, for `search` narrows (multi-entry index). */
  words: string[];
  /** Widget data (`/poll`, `/todo`) and its changes, oldest first: always read with the message, so kept on its row. */
  submessages?: SubmessageEntry[];
}

/** One submessage of a message (upstream's SubMessage; its `message_id` is the row's). */
export interface SubmessageEntry {
  id: number;
  sender_id: number;
  msg_type: string;
  /** JSON text, as the client sent it. */
  content: string;
}

/** Per-user message flags, as upstream's UserMessage bitfield. */
export const FLAG_BITS = {
  read: 1 << 0,
  starred: 1 << 1,
  collapsed: 1 << 2,
  mentioned: 1 << 3,
  stream_wildcard_mentioned: 1 << 4,
  topic_wildcard_mentioned: 1 << 5,
  group_mentioned: 1 << 6,
  has_alert_word: 1 << 7,
  historical: 1 << 8,
} as const;
export type FlagName = keyof typeof FLAG_BITS;

export interface UserMessageRow {
  user_id: number;
  message_id: number;
  flags: number;
  /**
   * Copied from the message (and rewritten when it moves), so a user's rows of a topic, channel,
   * conversation or sender are one range of an index, read beside the messages' own index:
   * the channel, 0 for a direct message.
   */
  stream_id: number;
  /** The topic's `topic_key` for a channel message, the conversation's `dm_key` for a direct one. */
  thread_key: string;
  sender_id: number;
  /** Sparse index columns (present as 1 only when true). */
  unread?: 1;
  starred?: 1;
  /** Any direct, group or wildcard mention. */
  mentioned?: 1;
  /** One of the user's alert words occurs in the message (`has_alert_word`). */
  alerted?: 1;
}

export interface ReactionRow {
  /** `${message_id}:${user_id}:${reaction_type}:${emoji_code}` — one reaction per user and emoji. */
  key: string;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';
  /** Insertion order, so reactions list in the order they were added. */
  seq: number;
}

export interface RecipientRow {
  id: number;
  /** `user:ID`, `channel:ID` or `dm:1,2,3` (group conversations). */
  key: string;
}

export interface UserGroupRow {
  id: number;
  name: string;
  name_key: string;
  description: string;
  is_system_group: boolean;
  deactivated: boolean;
  date_created: number;
  creator_id: number | null;
  direct_members: number[];
  direct_subgroup_ids: number[];
  can_mention_group: GroupSettingValue;
  /** Group management settings; absent: upstream's defaults for a new group (see wire/user-group-wire.ts). */
  can_add_members_group?: GroupSettingValue;
  can_join_group?: GroupSettingValue;
  can_leave_group?: GroupSettingValue;
  can_manage_group?: GroupSettingValue;
  can_remove_members_group?: GroupSettingValue;
}

export interface LinkifierRow {
  id: number;
  pattern: string;
  url_template: string;
  order: number;
}

/**
 * A channel's incoming-mail token for one requester and sender (upstream's ChannelEmailAddress).
 * `sender_id` 0 stands for upstream's Email gateway bot, the default sender.
 */
export interface ChannelEmailTokenRow {
  channel_id: number;
  creator_id: number;
  sender_id: number;
  email_token: string;
}

/** A data export of the realm (upstream's RealmExport): the realm archive, stored through the upload store. */
export interface RealmExportRow {
  id: number;
  acting_user_id: number;
  /** 1: public, 2: standard (upstream's types; the archive is the whole realm either way). */
  export_type: 1 | 2;
  export_time: number;
  status: 'pending' | 'succeeded' | 'failed';
  /** The archive file's place in the upload store, once made. */
  path_id: string | null;
  failed_timestamp: number | null;
}

/** A code playground: where a code block of a language can be opened (upstream's RealmPlayground). */
export interface RealmPlaygroundRow {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export interface RealmEmojiRow {
  id: number;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
  /** An uploaded image's place in the upload store, served at `source_url` to anyone; absent: an external image. */
  path_id?: string;
  content_type?: string;
}

export interface UserTopicRow {
  user_id: number;
  stream_id: number;
  topic_key: string;
  topic_name: string;
  /** 0 none, 1 muted, 2 unmuted, 3 followed. */
  visibility_policy: 0 | 1 | 2 | 3;
  last_updated: number;
}

export interface CounterRow {
  name: string;
  next: number;
}

/** A custom profile field (spec 4.10). `field_data` is kept as the JSON text the API exchanges. */
export interface CustomProfileFieldRow {
  id: number;
  name: string;
  hint: string;
  /** 1 short text, 2 long text, 3 list of options, 4 date, 5 link, 6 person picker, 7 external account, 8 pronouns. */
  field_type: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
  field_data: string;
  order: number;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
}

/** One user's value for one custom profile field. */
export interface ProfileValueRow {
  user_id: number;
  field_id: number;
  value: string;
  /** For fields whose values are Markdown. */
  rendered_value?: string;
}

export interface InviteRow {
  id: number;
  email: string;
  email_key: string;
  invited_by: number;
  invite_as: Role;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  notify_referrer_on_join: boolean;
  welcome_message_custom_text: string | null;
  invited_at: number;
  /** null: never expires. */
  expires_at: number | null;
  status: 'pending' | 'accepted' | 'revoked';
  accepted_user_id: number | null;
  /** The secret only the invitation mail carries; accepting needs it (upstream's confirmation key). */
  confirmation_key: string;
}

/**
 * A reusable invitation link (upstream's MultiuseInvite): anyone holding it may create an
 * account, as often as they like, until it expires or is revoked. Its ids are its own, as
 * upstream's table's are (`is_multiuse` tells them apart from email invitations').
 */
export interface MultiuseInviteRow {
  id: number;
  invited_by: number;
  invite_as: Role;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  /** What the welcome bot sends each new account; null: the organization's default. */
  welcome_message_custom_text: string | null;
  invited_at: number;
  /** null: never expires. */
  expires_at: number | null;
  status: 'active' | 'revoked';
  /** The secret the link carries; joining needs it (upstream's confirmation key). */
  confirmation_key: string;
}

/** Mail the server "sent": recorded and viewable, never delivered (no mail leaves the machine). */
export interface OutgoingMailRow {
  id: number;
  to: string;
  subject: string;
  body: string;
  sent_at: number;
  /** What caused it, e.g. `invitation`, `deactivation`. */
  kind: string;
  /** For `invitation` mail: the invitation, so the mailbox shows it only to who may manage it. */
  invite_id?: number;
}

export interface NavigationViewRow {
  user_id: number;
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

export interface SavedSnippetRow {
  id: number;
  user_id: number;
  title: string;
  content: string;
  date_created: number;
}

/** One of a user's alert words (or phrases), as the user typed it; matching ignores case. */
export interface AlertWordRow {
  id: number;
  user_id: number;
  word: string;
}

/** A user muted by another: their messages arrive already read for the muter. */
export interface MutedUserRow {
  user_id: number;
  muted_user_id: number;
  date_muted: number;
}

/** A user's status: text and emoji (empty strings: none). */
export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';
  /** When it was last set. */
  timestamp: number;
}

/** A message draft kept for syncing between a user's clients. */
export interface DraftRow {
  id: number;
  user_id: number;
  /** '' for an unaddressed draft (upstream's draft without a recipient). */
  type: '' | 'stream' | 'private';
  /** As upstream lists a draft's recipient: the channel id, or the other participants' ids ([own id] for a DM with oneself). */
  to: number[];
  topic: string;
  content: string;
  /** Seconds, with upstream's microsecond precision. */
  last_edit_time: number;
}

export interface ScheduledMessageRow {
  id: number;
  user_id: number;
  type: 'stream' | 'private';
  /** A channel id, or the recipients' user ids. */
  to: number | number[];
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  failure_message: string | null;
  /** Sparse index column: 1 while the message still waits for delivery. */
  pending?: 1;
  /** Reminders (upstream) point at the message they remind of. */
  reminder_target_message_id: number | null;
  /** The client that scheduled (or last edited) it; the delivered message carries its name. */
  client?: string;
  /** As given when scheduled; absent: the send's default for `client`. */
  read_by_sender?: boolean;
  /** A reminder's note, kept to rebuild its text from the message at delivery time. */
  reminder_note?: string;
}

export interface PresenceRow {
  user_id: number;
  active_timestamp: number;
  idle_timestamp: number;
  last_update_id: number;
}

/** Upstream's PushDeviceToken kinds. */
export const PUSH_KIND_APNS = 1;
export const PUSH_KIND_FCM = 2;

/** A mobile device registered for push notifications (upstream's PushDeviceToken); nothing is ever pushed. */
export interface PushDeviceTokenRow {
  user_id: number;
  kind: typeof PUSH_KIND_APNS | typeof PUSH_KIND_FCM;
  token: string;
  /** The iOS app's id for APNs tokens; null for FCM. */
  ios_app_id: string | null;
  /** UNIX seconds of the latest registration. */
  last_updated: number;
}

/** An uploaded file's metadata (upstream's Attachment); its bytes live in the engine's UploadStore. */
export interface AttachmentRow {
  id: number;
  /** `{realm_id}/{2 hex}/{24 random url-safe chars}/{sanitized name}`, unique: the file's address. */
  path_id: string;
  /** The name the file was uploaded with. */
  file_name: string;
  /** As the uploading client sent it, else guessed from the name. */
  content_type: string;
  size: number;
  owner_id: number;
  /** UNIX seconds. */
  create_time: number;
  /** Messages whose content links the file (multi-entry index): their readers may fetch it. */
  message_ids: number[];
}

/** A sync hub's identity (docs/SYNC.md): one row, made on first use, gone with the realm (a new epoch). */
export interface SyncHubRow {
  id: 1;
  hub_id: string;
  epoch: string;
}

/** One entry of a hub's change feed: the latest change of one message, channel or user; a topic visibility or realm change concerning `users`. */
export interface SyncChangeRow {
  seq: number;
  kind: 'message' | 'realm' | 'user_topic' | 'channel' | 'user' | 'tables';
  /** `message` entries only; a message keeps only its latest entry. */
  message_id?: number;
  /** `channel` (a channel or its subscriptions) and `user` entries: which one; each keeps only its latest entry. */
  entity_id?: number;
  /**
   * `realm` entries: the users whose view changed; `user_topic` entries: the users whose topic
   * visibility changed; `channel` entries: the users told of the change (who may have lost sight of it);
   * `tables` entries: the users told of its notices.
   */
  users?: number[];
  /** `tables` entries: the events the hub told of changed personal or shared rows, as its transaction told them. */
  notices?: JournaledNotice[];
}

/** A notice as data a replica can deliver again: its event, the users told, their own fields, the realm's name for the empty topic. */
export interface JournaledNotice {
  event: { type: string } & Record<string, unknown>;
  users: number[];
  /** A user's own fields of the event (the notice's `perUser`), as pairs. */
  per_user?: [number, Record<string, unknown>][];
  empty_topic_display_name?: string;
}

/** A replica known to the hub: the user it pushes for and the last mutation applied. */
export interface SyncClientRow {
  client_id: string;
  user_id: number;
  last_mutation_id: number;
}

/** The recorded outcome of one pushed mutation, answered again to a retry. */
export interface SyncMutationRow {
  client_id: string;
  mutation_id: number;
  outcome: 'applied' | 'refused';
  /** applied: the API's answer; refused: the error's status and JSON. */
  status: number;
  body: Record<string, unknown>;
  /** A send: the replica's provisional id and the hub's id for it. */
  provisional_id?: number;
  final_id?: number;
}

/** A replica's checkpoint, tied to the hub's identity and epoch. */
export interface SyncReplicaRow {
  id: 1;
  hub_id: string;
  epoch: string;
  /** The hub's change `seq` this replica has applied up to. */
  cursor: number;
  client_id: string;
  next_mutation_id: number;
  /** The channels whose history (messages its user may read without having received them) the replica holds; absent: none. */
  history_channel_ids?: number[];
  /** Messages settled changes touched here, to be read again from the hub (the hub's run of a change may have touched fewer). */
  refresh_ids?: number[];
}

/** A local change on a replica, queued in the transaction that made it. */
export interface SyncOutboxRow {
  mutation_id: number;
  method: string;
  /** Below /api/v1. */
  path: string;
  params: Record<string, string>;
  /** `pending` until the hub answers; a send then stays `acked` until its message is pulled. */
  state: 'pending' | 'acked';
  /** A send: the local (provisional) message id, and the local client's echo fields. */
  provisional_id?: number;
  queue_id?: string;
  local_id?: string;
  /** `acked` sends: the hub's id. */
  final_id?: number;
  /** The hub's messages the local run of this change touched (`touchedMessageIds`): read again from the hub once it is settled. */
  touched_ids?: number[];
}

/**
 * A file a replica fetched from its hub for its user (docs/SYNC.md, "Files"), its bytes in the
 * engine's upload store under `path_id`: later requests for `path` are answered here, offline too.
 */
export interface SyncFileRow {
  /** What followed `/user_uploads/` in the request (`download/...` is a path of its own). */
  path: string;
  path_id: string;
  /** The hub's answer's headers that describe the file (type, disposition, sandboxing). */
  headers: [string, string][];
}

/** A local change the hub refused (or a reset hub could no longer take), for its author to see. */
export interface SyncRefusalRow {
  mutation_id: number;
  method: string;
  path: string;
  status: number;
  msg: string;
  code: string;
  /** A refused send: what it said and where it went (its form fields as sent), so its author can have the text back. */
  message?: RefusedMessage;
}

/** The fields of a refused `POST /messages`, raw as the client sent them (`to` JSON or a name). */
export interface RefusedMessage {
  type: string;
  to: string;
  topic?: string;
  content: string;
}
