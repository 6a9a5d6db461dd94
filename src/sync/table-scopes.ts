/**
 * Which rows of a table a replica holds (docs/SYNC.md): the snapshot sends them so, and a
 * `tables` feed entry refreshes them so, from one list.
 */

/** Realm-wide tables every member's engine needs whole (nothing in them is secret). */
export const SHARED_TABLES = [
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
export const OWN_ROWS = {
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

/** `users`: the replica's own row (its personal settings live on it), which the pull brings as a changed user. */
export type RefreshedTable = (typeof SHARED_TABLES)[number] | keyof typeof OWN_ROWS | 'users';

/**
 * The tables whose rows the hub's events of each type report changed, refreshed on a replica
 * without a resync: the page brings the caller's rows of them, scoped as above, and the events.
 * Disabling drafts synchronization deletes the drafts with no `drafts` event, hence `drafts`
 * for `user_settings`. Any other type a snapshot carries still costs a resync
 * (`hub/change-journal.ts`); `user_group` among them, since a role change moves its user
 * between the role groups and what else it reveals was not checked.
 */
export const EVENT_TABLES: Readonly<Record<string, readonly RefreshedTable[]>> = {
  user_status: ['user_status'],
  alert_words: ['alert_words'],
  drafts: ['drafts'],
  muted_users: ['muted_users'],
  navigation_view: ['navigation_views'],
  saved_snippets: ['saved_snippets'],
  scheduled_messages: ['scheduled_messages'],
  reminders: ['scheduled_messages'],
  attachment: ['attachments'],
  user_settings: ['users', 'drafts'],
  update_display_settings: ['users'],
  update_global_notifications: ['users'],
  realm_emoji: ['realm_emoji'],
  realm_linkifiers: ['linkifiers'],
  realm_playgrounds: ['realm_playgrounds'],
  channel_folder: ['channel_folders'],
};

export const tablesOf = (eventType: string): readonly RefreshedTable[] => (Object.hasOwn(EVENT_TABLES, eventType) ? EVENT_TABLES[eventType]! : []);

/** Every table a `tables` entry may refresh, but `users` (a pull reads that table anyway). */
export const REFRESHED_ROW_TABLES = [...new Set(Object.values(EVENT_TABLES).flat())].filter(
  (table): table is Exclude<RefreshedTable, 'users'> => table !== 'users',
);

/** The index finding a user's own rows of a personal table; undefined for a shared one. */
export const ownerIndex = (table: Exclude<RefreshedTable, 'users'>): string | undefined =>
  Object.hasOwn(OWN_ROWS, table) ? OWN_ROWS[table as keyof typeof OWN_ROWS] : undefined;
