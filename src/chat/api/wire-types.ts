/** The API's objects as the app reads them (a subset of each: what it shows or acts on). */

export interface User {
  user_id: number;
  email: string;
  delivery_email: string | null;
  full_name: string;
  is_active: boolean;
  is_bot: boolean;
  is_guest: boolean;
  is_admin: boolean;
  is_owner: boolean;
  role: number;
  timezone: string;
  avatar_url: string | null;
  bot_type: number | null;
  /** A bot's owner, who may delete its messages as their own. */
  bot_owner_id?: number | null;
  /** The server's own bots (cross_realm_bots): no one can mute them. */
  is_system_bot?: boolean;
  /**
   * A human's custom profile field values by field id (absent for bots), as /register sent
   * them: `RealmState.profileFields` is what events keep current.
   */
  profile_data?: Record<string, WireProfileValue>;
}

/** One custom profile field of the realm, as /register and the `custom_profile_fields` event list them. */
export interface WireProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
  /** JSON text: a list of options' choices, an external account's subtype and URL pattern; else ''. */
  field_data: string;
  order: number;
  editable_by_user?: boolean;
}

/** A user's value of one field; `rendered_value` (HTML) only for the types the server renders as Markdown. */
export interface WireProfileValue {
  value: string;
  rendered_value?: string;
}

/** A change to a message's widget (a vote, an option, a task), or the widget itself (the first). */
export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  /** JSON text. */
  content: string;
}

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  content: string;
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  display_recipient: string | { id: number; email: string; full_name: string }[];
  subject: string;
  reactions: Reaction[];
  /** Absent from servers that have no widgets. */
  submessages?: Submessage[];
  flags: string[];
  last_edit_timestamp?: number;
  /** When it was last moved to another topic or channel (upstream shows "moved"). */
  last_moved_timestamp?: number;
  is_me_message: boolean;
  /** In a search's page: the content and the topic (HTML) with the words that matched in highlight spans. */
  match_content?: string;
  match_subject?: string;
}

/** A channel the user may see, subscribed or not. */
export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_archived: boolean;
  folder_id: number | null;
  subscriber_count?: number;
  /** Who may add subscribers, themselves included: the way into a private channel (absent from older servers). */
  can_add_subscribers_group?: number | { direct_members: number[]; direct_subgroups: number[] };
  /** Who may post in the channel (an announcements channel: administrators). */
  can_send_message_group?: number | { direct_members: number[]; direct_subgroups: number[] };
  /** Who may delete anyone's messages / their own here, besides the realm's groups of the same names. */
  can_delete_any_message_group?: number | { direct_members: number[]; direct_subgroups: number[] };
  can_delete_own_message_group?: number | { direct_members: number[]; direct_subgroups: number[] };
}

/** A channel as a subscriber sees it: the channel plus their own settings for it. */
export interface Subscription extends Channel {
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
}

export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  order: number;
  is_archived: boolean;
}

export interface NavigationView {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

export interface SavedSnippet {
  id: number;
  title: string;
  content: string;
}

export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export interface UserTopic {
  stream_id: number;
  topic_name: string;
  visibility_policy: number;
}

export interface UnreadMessages {
  pms: { other_user_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
}

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids?: number[];
  is_system_group: boolean;
  /** A group id, or an anonymous group of members and subgroups. */
  can_mention_group?: number | { direct_members: number[]; direct_subgroups: number[] };
}

/** POST /register's answer: the parts the app keeps. */
export interface MutedUser {
  id: number;
  timestamp: number;
}

export interface InitialState {
  queue_id: string;
  last_event_id: number;
  user_id: number;
  realm_name: string;
  realm_default_code_block_language?: string;
  realm_empty_topic_display_name: string;
  max_message_length: number;
  /** The largest file `POST /user_uploads` takes; 0: uploads are off. */
  max_file_upload_size_mib: number;
  max_topic_length: number;
  realm_users: User[];
  realm_non_active_users: User[];
  cross_realm_bots: User[];
  subscriptions: Subscription[];
  streams: Channel[];
  channel_folders: ChannelFolder[];
  unread_msgs: UnreadMessages;
  starred_messages: number[];
  recent_private_conversations: { max_message_id: number; user_ids: number[] }[];
  user_topics: UserTopic[];
  navigation_views: NavigationView[];
  saved_snippets: SavedSnippet[];
  scheduled_messages: ScheduledMessage[];
  realm_emoji: Record<string, { id: string; name: string; source_url: string; deactivated: boolean }>;
  realm_user_groups: UserGroup[];
  custom_profile_fields?: WireProfileField[];
  /** The built-in external account kinds (`github`, ...) and the URL pattern of each. */
  realm_default_external_accounts?: Record<string, { url_pattern?: string }>;
  user_settings: Record<string, unknown> & { timezone: string; color_scheme: number; enter_sends: boolean; twenty_four_hour_time: boolean };
  is_admin: boolean;
  is_owner: boolean;
  is_moderator: boolean;
  is_guest: boolean;
  can_create_streams: boolean;
  can_invite_others_to_realm: boolean;
  server_typing_started_wait_period_milliseconds: number;
  server_typing_stopped_wait_period_milliseconds: number;
  server_typing_started_expiry_period_milliseconds: number;
  realm_allow_message_editing: boolean;
  realm_allow_edit_history?: boolean;
  realm_enable_read_receipts?: boolean;
  /** Upstream's file of every Unicode emoji the server accepts (absent on old servers). */
  server_emoji_data_url?: string;
  realm_message_content_edit_limit_seconds: number | null;
  reminders?: Reminder[];
  alert_words?: string[];
  /** The people I muted, with when (upstream's `muted_users`). */
  muted_users?: MutedUser[];
  /** Everyone's status that says something, by user id. */
  user_status?: Record<string, WireUserStatus>;
  /** `slim_presence`: keyed by user id. */
  presences: Record<string, RawPresence>;
  presence_last_update_id?: number;
  server_timestamp: number;
  server_presence_ping_interval_seconds: number;
  server_presence_offline_threshold_seconds: number;
}

/** A reminder about a message, due to come as a DM from the notification bot. */
export interface Reminder {
  reminder_id: number;
  scheduled_delivery_timestamp: number;
  rendered_content: string;
  reminder_target_message_id: number;
  failed: boolean;
}

/** A user's status as upstream sends it: each field only when set (an event: only what changed). */
export interface WireUserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

/** Upstream's modern presence of one user: when a client last reported them active, and last connected at all. */
export interface RawPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** One event from GET /events; each handler reads the fields of its type. */
export type ServerEvent = { id: number; type: string; op?: string } & Record<string, any>;
