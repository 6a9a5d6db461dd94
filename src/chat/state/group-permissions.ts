import { signal } from '@preact/signals';
import type { InitialState, ServerEvent, UserGroup } from '../api/wire-types.ts';

/** Upstream's value of a permission setting: a group's id, or an anonymous group of members and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** The realm settings the app reads to offer only what the user may do. */
export const REALM_GROUP_SETTINGS = [
  'can_resolve_topics_group',
  'can_move_messages_between_topics_group',
  'can_move_messages_between_channels_group',
  'can_delete_own_message_group',
  'can_delete_any_message_group',
  'can_create_public_channel_group',
  'can_create_private_channel_group',
] as const;
export type RealmGroupSetting = (typeof REALM_GROUP_SETTINGS)[number];

export interface GroupMembership {
  name: string;
  description: string;
  /** A role's group (`role:members`, ...): what permission settings usually name. */
  system: boolean;
  members: readonly number[];
  subgroups: readonly number[];
  /** Who may mention the group (`@*name*`); absent from an older server: anyone. */
  canMention?: GroupSettingValue;
}

/**
 * User groups (system groups for roles included) and the realm's permission settings, kept by
 * `user_group` and `realm` events, so that the app can ask, as upstream's web app does, whether
 * the user holds a setting before offering the action. The server still decides.
 */
export class GroupPermissions {
  readonly groups = signal<ReadonlyMap<number, GroupMembership>>(new Map());
  readonly settings = signal<Readonly<Partial<Record<RealmGroupSetting, GroupSettingValue>>>>({});

  /** Takes a fresh initial state whole (after a new registration). */
  reset(initial: InitialState): void {
    this.groups.value = new Map(
      (initial.realm_user_groups ?? []).map((group) => [
        group.id,
        {
          name: group.name,
          description: group.description,
          system: group.is_system_group,
          members: group.members,
          subgroups: group.direct_subgroup_ids ?? [],
          canMention: group.can_mention_group,
        },
      ]),
    );
    const settings: Partial<Record<RealmGroupSetting, GroupSettingValue>> = {};
    for (const name of REALM_GROUP_SETTINGS) {
      const value = (initial as unknown as Record<string, GroupSettingValue | undefined>)[`realm_${name}`];
      if (value !== undefined) settings[name] = value;
    }
    this.settings.value = settings;
  }

  /**
   * Whether the user holds a realm setting. A server that does not send it (an older one) is
   * taken to allow: the server's answer is what counts.
   */
  holds(userId: number, name: RealmGroupSetting): boolean {
    const value = this.settings.value[name];
    return value === undefined || this.#inSetting(userId, value);
  }

  /** Whether a user is in a group setting's value (a group id, or an anonymous group). */
  inSetting(userId: number, value: GroupSettingValue): boolean {
    return this.#inSetting(userId, value);
  }

  /**
   * Whether the user may delete a message, by upstream's rule: the realm's
   * can_delete_any_message_group or the channel's; their own message (or their bot's) with the
   * realm's can_delete_own_message_group or the channel's. A channel's groups only add. The
   * server also checks the time limit, and decides.
   */
  mayDelete(userId: number, message: { own: boolean; channel?: { any?: GroupSettingValue; own?: GroupSettingValue } }): boolean {
    const inChannel = (value: GroupSettingValue | undefined) => value !== undefined && this.#inSetting(userId, value);
    if (this.holds(userId, 'can_delete_any_message_group') || inChannel(message.channel?.any)) return true;
    return message.own && (this.holds(userId, 'can_delete_own_message_group') || inChannel(message.channel?.own));
  }

  /** The groups a user may mention, as upstream's typeahead offers them: named groups, not roles. */
  mentionableBy(userId: number): { id: number; name: string; description: string }[] {
    return [...this.groups.value]
      .filter(([, group]) => !group.system && (group.canMention === undefined || this.#inSetting(userId, group.canMention)))
      .map(([id, group]) => ({ id, name: group.name, description: group.description }));
  }

  applyEvent(event: ServerEvent): void {
    if (event.type === 'realm' && event.op === 'update_dict') {
      const data = (event.data ?? {}) as Record<string, unknown>;
      const changed = REALM_GROUP_SETTINGS.filter((name) => name in data);
      if (changed.length > 0) this.settings.value = { ...this.settings.value, ...Object.fromEntries(changed.map((name) => [name, data[name]])) };
      return;
    }
    if (event.type !== 'user_group') return;
    const groups = new Map(this.groups.value);
    const id = event.group_id as number;
    const group = groups.get(id);
    switch (event.op) {
      case 'add': {
        const added = event.group as UserGroup;
        groups.set(added.id, {
          name: added.name,
          description: added.description ?? '',
          system: added.is_system_group ?? false,
          members: added.members,
          subgroups: added.direct_subgroup_ids ?? [],
          canMention: added.can_mention_group,
        });
        break;
      }
      case 'update': {
        if (!group) return;
        const data = (event.data ?? {}) as { name?: string; description?: string; deactivated?: boolean; can_mention_group?: GroupSettingValue };
        // A deactivated group is gone for this client (it does not ask to be told of them).
        if (data.deactivated === true) groups.delete(id);
        else
          groups.set(id, {
            ...group,
            name: data.name ?? group.name,
            description: data.description ?? group.description,
            canMention: data.can_mention_group ?? group.canMention,
          });
        break;
      }
      case 'remove':
        groups.delete(id);
        break;
      case 'add_members':
      case 'remove_members':
        if (group) groups.set(id, { ...group, members: changedIds(group.members, event.op, event.user_ids as number[]) });
        break;
      case 'add_subgroups':
      case 'remove_subgroups':
        if (group) groups.set(id, { ...group, subgroups: changedIds(group.subgroups, event.op, event.direct_subgroup_ids as number[]) });
        break;
      default:
        return;
    }
    this.groups.value = groups;
  }

  #inSetting(userId: number, value: GroupSettingValue): boolean {
    if (typeof value === 'number') return this.#inGroup(userId, value, new Set());
    return value.direct_members.includes(userId) || value.direct_subgroups.some((id) => this.#inGroup(userId, id, new Set()));
  }

  /** Membership through subgroups, each group visited once (a cycle cannot loop). */
  #inGroup(userId: number, groupId: number, seen: Set<number>): boolean {
    if (seen.has(groupId)) return false;
    seen.add(groupId);
    const group = this.groups.value.get(groupId);
    if (!group) return false;
    return group.members.includes(userId) || group.subgroups.some((sub) => this.#inGroup(userId, sub, seen));
  }
}

/** A list of ids with an event's ids added (`add_…`) or removed (`remove_…`). */
function changedIds(ids: readonly number[], op: string, changed: readonly number[]): number[] {
  return op.startsWith('add') ? [...new Set([...ids, ...changed])] : ids.filter((id) => !changed.includes(id));
}
