/**
 * PATCH /realm: the organization settings this server stores, changed by administrators (a few
 * by owners only), as upstream's `update_realm`. Every value is checked before anything is
 * written; only a value that differs from the stored one is written, announced and reported.
 */
import { ApiError, badRequest } from '../errors/api-error.ts';
import type { EngineEvent } from '../events/event-types.ts';
import { requireOwner } from '../permissions/caller-kinds.ts';
import { expectGroupSetting, normalizeGroupSetting, resolveGroupSetting, sameGroupSetting } from '../permissions/group-setting-input.ts';
import { configuredAnnouncementChannelId } from '../permissions/realm-channel-settings.ts';
import { realmPermissionGroup } from '../permissions/realm-permissions.ts';
import type { CallerScope } from '../services/action-scope.ts';
import type { GroupSettingValue, RealmRow } from '../storage/rows.ts';
import { groupSettingToWire } from '../wire/channel-wire.ts';
import { activeUserIds } from './profile-fields.ts';

/** Upstream's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** The time limits whose special value `unlimited` means no limit (null). */
export const REALM_TIME_LIMITS = [
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
] as const;
type TimeLimit = (typeof REALM_TIME_LIMITS)[number];

/**
 * The realm permission groups this server stores and enforces, with whether `role:everyone`
 * (guests) may hold each and whether only owners may change it, as upstream configures them.
 */
export const REALM_GROUP_SETTINGS = {
  can_move_messages_between_topics_group: { allowEveryone: true, ownerOnly: false },
  can_move_messages_between_channels_group: { allowEveryone: false, ownerOnly: false },
  can_resolve_topics_group: { allowEveryone: true, ownerOnly: false },
  can_invite_users_group: { allowEveryone: false, ownerOnly: true },
  create_multiuse_invite_group: { allowEveryone: false, ownerOnly: true },
  can_create_public_channel_group: { allowEveryone: false, ownerOnly: false },
  can_create_private_channel_group: { allowEveryone: false, ownerOnly: false },
  can_delete_any_message_group: { allowEveryone: false, ownerOnly: false },
  can_delete_own_message_group: { allowEveryone: true, ownerOnly: false },
} as const;
type RealmGroupSetting = keyof typeof REALM_GROUP_SETTINGS;

export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export interface RealmChanges {
  name?: string;
  description?: string;
  allowMessageEditing?: boolean;
  allowEditHistory?: boolean;
  enableSpectatorAccess?: boolean;
  enableReadReceipts?: boolean;
  topicsPolicy?: 'allow_empty_topic' | 'disable_empty_topic';
  /** Raw values: a positive number of seconds or `unlimited`. */
  timeLimits: Partial<Record<TimeLimit, string | number>>;
  /** Raw value: a positive number of days or `unlimited`. */
  messageRetentionDays?: string | number;
  /** A channel id, or a negative number for none. */
  newStreamAnnouncementsStreamId?: number;
  /** A fence's language when it names none; empty: none. */
  defaultCodeBlockLanguage?: string;
  groupSettings: Partial<Record<RealmGroupSetting, GroupSettingChange>>;
}

/** Changes the realm and answers upstream's `data`: each changed setting (a changed string as "updated"). */
export async function updateRealm(scope: CallerScope, changes: RealmChanges): Promise<Record<string, unknown>> {
  const { caller, directory } = scope;
  const realm = directory.realm;
  const next: Partial<RealmRow> = {};
  const data: Record<string, unknown> = {};
  const events: EngineEvent[] = [];
  const update = (property: string, value: unknown) => events.push({ type: 'realm', op: 'update', property, value });
  const updateDict = (values: Record<string, unknown>) => events.push({ type: 'realm', op: 'update_dict', property: 'default', data: values });

  // Upstream checks the owner-only settings before changing any.
  const retention = changes.messageRetentionDays === undefined ? undefined : (requireOwner(caller), parseRealmRetentionDays(changes.messageRetentionDays));
  for (const setting of Object.keys(changes.groupSettings) as RealmGroupSetting[]) {
    if (REALM_GROUP_SETTINGS[setting].ownerOnly) requireOwner(caller);
  }
  const limits = Object.entries(changes.timeLimits).map(([name, raw]) => [name as TimeLimit, parseTimeLimit(name, raw)] as const);

  for (const [name, value] of limits) {
    if (realm[name] === value) continue;
    next[name] = value;
    data[name] = value;
    if (name === 'message_content_edit_limit_seconds') updateDict({ [name]: value });
    else update(name, value);
  }
  if (changes.name !== undefined && changes.name !== realm.name) {
    next.name = changes.name;
    data.name = 'updated';
    update('name', changes.name);
  }
  if (changes.description !== undefined && changes.description !== realm.description) {
    next.description = changes.description;
    data.description = 'updated';
    update('description', changes.description);
  }
  if (changes.allowMessageEditing !== undefined && changes.allowMessageEditing !== realm.allow_message_editing) {
    next.allow_message_editing = changes.allowMessageEditing;
    data.allow_message_editing = changes.allowMessageEditing;
    updateDict({ allow_message_editing: changes.allowMessageEditing });
  }
  if (changes.allowEditHistory !== undefined && changes.allowEditHistory !== realm.allow_edit_history) {
    next.allow_edit_history = changes.allowEditHistory;
    data.allow_edit_history = changes.allowEditHistory;
    update('allow_edit_history', changes.allowEditHistory);
  }
  if (changes.enableSpectatorAccess !== undefined && changes.enableSpectatorAccess !== (realm.enable_spectator_access === true)) {
    next.enable_spectator_access = changes.enableSpectatorAccess;
    data.enable_spectator_access = changes.enableSpectatorAccess;
    update('enable_spectator_access', changes.enableSpectatorAccess);
  }
  if (changes.enableReadReceipts !== undefined && changes.enableReadReceipts !== (realm.enable_read_receipts === true)) {
    next.enable_read_receipts = changes.enableReadReceipts;
    data.enable_read_receipts = changes.enableReadReceipts;
    update('enable_read_receipts', changes.enableReadReceipts);
  }
  if (changes.defaultCodeBlockLanguage !== undefined && changes.defaultCodeBlockLanguage !== (realm.default_code_block_language ?? '')) {
    next.default_code_block_language = changes.defaultCodeBlockLanguage;
    data.default_code_block_language = 'updated';
    update('default_code_block_language', changes.defaultCodeBlockLanguage);
  }
  if (changes.topicsPolicy !== undefined && changes.topicsPolicy !== realm.topics_policy) {
    const mandatory = changes.topicsPolicy === 'disable_empty_topic';
    next.topics_policy = changes.topicsPolicy;
    data.topics_policy = changes.topicsPolicy;
    updateDict({ topics_policy: changes.topicsPolicy, mandatory_topics: mandatory });
  }
  if (retention !== undefined && retention !== realm.message_retention_days) {
    next.message_retention_days = retention;
    data.message_retention_days = retention;
    update('message_retention_days', retention);
  }
  if (changes.newStreamAnnouncementsStreamId !== undefined) {
    const requested = changes.newStreamAnnouncementsStreamId;
    const channelId = requested < 0 ? null : announcementChannel(scope, requested);
    if (channelId !== configuredAnnouncementChannelId(realm)) {
      next.new_stream_announcements_stream_id = channelId;
      data.new_stream_announcements_stream_id = requested;
      update('new_stream_announcements_stream_id', channelId ?? -1);
    }
  }
  for (const [setting, change] of Object.entries(changes.groupSettings) as [RealmGroupSetting, GroupSettingChange][]) {
    const current = realmPermissionGroup(realm, setting);
    expectGroupSetting(current, change.old === undefined ? undefined : normalizeGroupSetting(change.old));
    const value = resolveGroupSetting(change.new, setting, REALM_GROUP_SETTINGS[setting].allowEveryone, directory);
    if (sameGroupSetting(current, value)) continue;
    next[setting] = value;
    data[setting] = groupSettingToWire(value);
    updateDict({ [setting]: groupSettingToWire(value) });
  }

  if (Object.keys(next).length > 0) await scope.db.realm.update(1, next);
  const users = activeUserIds(directory);
  for (const event of events) scope.notify({ event, users });
  return data;
}

/** upstream's parse_message_time_limit_setting: a positive integer, or `unlimited` for none. */
function parseTimeLimit(name: string, raw: string | number): number | null {
  if (raw === 'unlimited') return null;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0) return raw;
  throw badValue(name, raw);
}

/** A realm's retention: a positive number of days, or `unlimited` (-1); a realm has no `realm_default`. */
function parseRealmRetentionDays(raw: string | number): number {
  if (raw === 'unlimited') return -1;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0) return raw;
  throw badValue('message_retention_days', raw);
}

const badValue = (name: string, value: string | number) =>
  new ApiError(`Bad value for '${name}': ${String(value)}`, { code: 'REQUEST_VARIABLE_INVALID', extra: { var_name: name, bad_value: value } });

/** Upstream's access_stream_by_id with allow_realm_admin: any existing, unarchived channel. */
function announcementChannel(scope: CallerScope, channelId: number): number {
  const channel = scope.directory.channels.get(channelId);
  if (!channel || channel.is_archived) throw badRequest('Invalid channel ID');
  return channel.id;
}
