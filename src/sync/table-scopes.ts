import type { EngineEvent } from '../engine/events/event-types.ts';
import { FIRST_USER_GROUP_ID } from '../engine/permissions/system-groups.ts';

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

/**
 * `users`: the replica's own row (its personal settings live on it), which the pull brings as a
 * changed user. `realm`: the realm's one row, which the snapshot sends whole (its settings,
 * defaults for new users, default channels).
 */
export type RefreshedTable = (typeof SHARED_TABLES)[number] | keyof typeof OWN_ROWS | 'users' | 'realm';

/**
 * The tables whose rows the hub's events of each type report changed, refreshed on a replica
 * without a resync: the page brings the caller's rows of them, scoped as above, and the events.
 * Disabling drafts synchronization deletes the drafts with no `drafts` event, hence `drafts`
 * for `user_settings`; deleting a custom profile field or one of its choices deletes values,
 * hence `profile_values` for `custom_profile_fields`. Group membership lives in the
 * `user_groups` rows. Any other type a snapshot carries still costs a resync
 * (`hub/change-journal.ts`).
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
  user_group: ['user_groups'],
  custom_profile_fields: ['custom_profile_fields', 'profile_values'],
  realm: ['realm'],
  realm_user_settings_defaults: ['realm'],
  default_streams: ['realm'],
};

/**
 * Realm settings the snapshot's filters read (`userSeenBy`: whose real email each user sees): a
 * change to one changes which rows replicas hold, so it costs a resync. No other realm field is
 * read by `snapshot.ts`, `pull.ts` or the visibility functions they call (`host`, which the
 * hidden emails name, no event changes).
 */
const VIEW_REALM_SETTINGS = new Set(['email_address_visibility']);

/** Whether a `realm` event changes a setting of `VIEW_REALM_SETTINGS`. */
export function changesRealmView(event: EngineEvent): boolean {
  if (event.type !== 'realm') return false;
  const properties = event.op === 'update_dict' ? Object.keys((event.data as Record<string, unknown> | undefined) ?? {}) : [event.property];
  return properties.some((property) => typeof property === 'string' && VIEW_REALM_SETTINGS.has(property));
}

/**
 * The tables an event reports changed (`EVENT_TABLES`), with three exceptions decided by the
 * event itself: a user's custom profile data (`realm_user` with `custom_profile_field`) lives in
 * `profile_values`; a role group's membership follows its users' roles (computed, never stored),
 * so a replica tells it with the role it learns from the user's entry (`replica/entity-rows.ts`);
 * a realm setting that changes what replicas hold travels by resync (`changesRealmView`).
 */
export function tablesOf(event: EngineEvent): readonly RefreshedTable[] {
  if (event.type === 'realm_user') {
    const person = event.person as { custom_profile_field?: unknown } | undefined;
    return person?.custom_profile_field === undefined ? [] : ['profile_values'];
  }
  if (event.type === 'user_group' && typeof event.group_id === 'number' && event.group_id < FIRST_USER_GROUP_ID) return [];
  if (changesRealmView(event)) return [];
  return Object.hasOwn(EVENT_TABLES, event.type) ? EVENT_TABLES[event.type]! : [];
}

/** Every table a `tables` entry may refresh, but `users` (a pull reads that table anyway). */
export const REFRESHED_ROW_TABLES = [...new Set(Object.values(EVENT_TABLES).flat())].filter(
  (table): table is Exclude<RefreshedTable, 'users'> => table !== 'users',
);

/** The index finding a user's own rows of a personal table; undefined for a shared one. */
export const ownerIndex = (table: Exclude<RefreshedTable, 'users'>): string | undefined =>
  Object.hasOwn(OWN_ROWS, table) ? OWN_ROWS[table as keyof typeof OWN_ROWS] : undefined;
