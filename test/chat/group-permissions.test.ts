import { describe, expect, test } from 'vitest';
import type { InitialState } from '../../src/chat/api/wire-types.ts';
import { GroupPermissions } from '../../src/chat/state/group-permissions.ts';

const ADMINS = 1;
const MEMBERS = 2;
const DESIGNERS = 3;
const LEADS = 4;

function permissions(settings: Record<string, unknown>): GroupPermissions {
  const state = new GroupPermissions();
  state.reset({
    realm_user_groups: [
      { id: ADMINS, name: 'role:administrators', is_system_group: true, members: [8], direct_subgroup_ids: [] },
      { id: MEMBERS, name: 'role:members', is_system_group: true, members: [10, 11], direct_subgroup_ids: [ADMINS] },
      { id: DESIGNERS, name: 'designers', is_system_group: false, members: [20], direct_subgroup_ids: [LEADS] },
      // A cycle: membership must still end.
      { id: LEADS, name: 'leads', is_system_group: false, members: [21], direct_subgroup_ids: [DESIGNERS] },
    ],
    ...settings,
  } as unknown as InitialState);
  return state;
}

describe('whether a user holds a realm permission setting', () => {
  test('a group id holds its members and its subgroups’ members, through cycles', () => {
    const state = permissions({ realm_can_resolve_topics_group: MEMBERS, realm_can_move_messages_between_channels_group: DESIGNERS });
    expect([8, 10, 20].map((user) => state.holds(user, 'can_resolve_topics_group'))).toEqual([true, true, false]);
    expect([20, 21, 8].map((user) => state.holds(user, 'can_move_messages_between_channels_group'))).toEqual([true, true, false]);
  });

  test('an anonymous group holds its direct members and its subgroups’ members', () => {
    const state = permissions({ realm_can_delete_any_message_group: { direct_members: [11], direct_subgroups: [ADMINS] } });
    expect([11, 8, 10].map((user) => state.holds(user, 'can_delete_any_message_group'))).toEqual([true, true, false]);
  });

  test('deleting follows upstream: the realm’s groups or the channel’s, which only add; another’s message needs an any-group', () => {
    const state = permissions({ realm_can_delete_any_message_group: ADMINS, realm_can_delete_own_message_group: ADMINS });
    expect(state.mayDelete(10, { own: true })).toBe(false);
    expect(state.mayDelete(10, { own: true, channel: { own: MEMBERS } })).toBe(true);
    expect(state.mayDelete(10, { own: false, channel: { own: MEMBERS } })).toBe(false);
    expect(state.mayDelete(20, { own: false, channel: { any: DESIGNERS } })).toBe(true);
    // A channel's empty group takes nothing from the realm's.
    expect(state.mayDelete(8, { own: false, channel: { any: { direct_members: [], direct_subgroups: [] } } })).toBe(true);
  });

  test('a setting the server did not send allows (the server decides)', () => {
    expect(permissions({}).holds(99, 'can_delete_own_message_group')).toBe(true);
  });

  test('events keep it: a changed setting, members and subgroups added and removed, a group removed', () => {
    const state = permissions({ realm_can_resolve_topics_group: ADMINS });
    expect(state.holds(10, 'can_resolve_topics_group')).toBe(false);

    state.applyEvent({ id: 1, type: 'realm', op: 'update_dict', property: 'default', data: { can_resolve_topics_group: DESIGNERS } });
    state.applyEvent({ id: 2, type: 'user_group', op: 'add_members', group_id: DESIGNERS, user_ids: [10] });
    expect(state.holds(10, 'can_resolve_topics_group')).toBe(true);

    state.applyEvent({ id: 3, type: 'user_group', op: 'remove_members', group_id: DESIGNERS, user_ids: [10] });
    expect(state.holds(10, 'can_resolve_topics_group')).toBe(false);

    state.applyEvent({ id: 4, type: 'user_group', op: 'add_subgroups', group_id: DESIGNERS, direct_subgroup_ids: [MEMBERS] });
    expect(state.holds(10, 'can_resolve_topics_group')).toBe(true);
    state.applyEvent({ id: 5, type: 'user_group', op: 'remove_subgroups', group_id: DESIGNERS, direct_subgroup_ids: [MEMBERS] });
    expect(state.holds(10, 'can_resolve_topics_group')).toBe(false);

    state.applyEvent({ id: 6, type: 'user_group', op: 'add', group: { id: 9, name: 'new', members: [10], direct_subgroup_ids: [] } });
    state.applyEvent({ id: 7, type: 'realm', op: 'update_dict', property: 'default', data: { can_resolve_topics_group: { direct_members: [], direct_subgroups: [9] } } });
    expect(state.holds(10, 'can_resolve_topics_group')).toBe(true);
    state.applyEvent({ id: 8, type: 'user_group', op: 'remove', group_id: 9 });
    expect(state.holds(10, 'can_resolve_topics_group')).toBe(false);
  });
});

describe('the groups a user may mention', () => {
  test('named groups whose can_mention_group holds the user, never role groups; kept by update events', () => {
    const state = new GroupPermissions();
    state.reset({
      realm_user_groups: [
        { id: ADMINS, name: 'role:administrators', is_system_group: true, members: [8], direct_subgroup_ids: [], can_mention_group: MEMBERS },
        { id: MEMBERS, name: 'role:members', is_system_group: true, members: [10], direct_subgroup_ids: [ADMINS], can_mention_group: MEMBERS },
        { id: DESIGNERS, name: 'designers', description: 'Pixels', is_system_group: false, members: [20], direct_subgroup_ids: [], can_mention_group: MEMBERS },
        { id: LEADS, name: 'leads', description: '', is_system_group: false, members: [21], direct_subgroup_ids: [], can_mention_group: ADMINS },
      ],
    } as unknown as InitialState);
    expect(state.mentionableBy(10)).toEqual([{ id: DESIGNERS, name: 'designers', description: 'Pixels' }]);
    expect(state.mentionableBy(8).map((group) => group.name)).toEqual(['designers', 'leads']);

    state.applyEvent({ id: 1, type: 'user_group', op: 'update', group_id: LEADS, data: { can_mention_group: { direct_members: [10], direct_subgroups: [] } } });
    expect(state.mentionableBy(10).map((group) => group.name)).toEqual(['designers', 'leads']);
    expect(state.mentionableBy(8).map((group) => group.name)).toEqual(['designers']);
  });
});
