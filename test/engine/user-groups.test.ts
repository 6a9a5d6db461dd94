import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GROUP_ADMINISTRATORS, GROUP_EVERYONE, GROUP_MEMBERS, GROUP_NOBODY, GROUP_OWNERS } from '../../src/engine/permissions/system-groups.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const SUCCESS = { result: 'success', msg: '' };
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
/** The group as GET /user_groups lists it. */
const group = async (id: number) =>
  (await realm.as('mia').get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === id) as Record<string, unknown>;
const directMembers = async (id: number) =>
  (await realm.as('mia').get(`/user_groups/${id}/members`, { direct_member_only: true })).body.members as number[];
const FIRST_GROUP = 9;
/** Every active human and bot of the test realm: who hears about groups. */
const EVERYONE = [IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.mia, IDS.gail, IDS.bot];

async function createGroup(params: Record<string, unknown> = {}) {
  const { status, body } = await realm.as('mark').post('/user_groups/create', {
    name: 'design-team',
    description: 'People who design',
    members: [IDS.mark, IDS.mia],
    ...params,
  });
  expect({ status, body }).toEqual({ status: 200, body: { result: 'success', msg: '', group_id: expect.any(Number) } });
  return body.group_id as number;
}

const creatorOnly = (id: number) => ({ direct_members: [id], direct_subgroups: [] });

describe('POST /user_groups/create', () => {
  it('creates a group with upstream defaults and tells every active user', async () => {
    const queues = EVERYONE.map((id) => openQueue(realm.engine, id));
    const { status, body } = await realm.as('mark').post('/user_groups/create', {
      name: 'design-team',
      description: 'People who design',
      members: [IDS.mia, IDS.mark],
    });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', group_id: FIRST_GROUP });
    const group = {
      id: FIRST_GROUP,
      name: 'design-team',
      description: 'People who design',
      members: [IDS.mark, IDS.mia],
      direct_subgroup_ids: [],
      is_system_group: false,
      date_created: realm.engine.nowSeconds(),
      creator_id: IDS.mark,
      deactivated: false,
      can_add_members_group: creatorOnly(IDS.mark),
      can_join_group: GROUP_NOBODY,
      can_leave_group: GROUP_EVERYONE,
      can_manage_group: creatorOnly(IDS.mark),
      can_mention_group: GROUP_EVERYONE,
      can_remove_members_group: GROUP_NOBODY,
    };
    for (const queue of queues) expect(queue.events).toEqual([{ id: 0, type: 'user_group', op: 'add', group }]);
    const list = await realm.as('mia').get('/user_groups');
    expect(list.body.user_groups.at(-1)).toEqual(group);
  });

  it('stores subgroups and group-setting values given as ids or as members and subgroups', async () => {
    const first = await createGroup();
    const second = await createGroup({
      name: 'leads',
      members: [IDS.olivia],
      subgroups: [first],
      can_mention_group: GROUP_MEMBERS,
      can_join_group: { direct_members: [IDS.mia], direct_subgroups: [GROUP_ADMINISTRATORS] },
      can_manage_group: { direct_members: [], direct_subgroups: [first] },
    });
    expect(await group(second)).toMatchObject({
      members: [IDS.olivia],
      direct_subgroup_ids: [first],
      can_mention_group: GROUP_MEMBERS,
      can_join_group: { direct_members: [IDS.mia], direct_subgroups: [GROUP_ADMINISTRATORS] },
      can_manage_group: first,
    });
    const members = await realm.as('mia').get(`/user_groups/${second}/members`);
    expect(members.body).toEqual({ result: 'success', msg: '', members: [IDS.olivia, IDS.mark, IDS.mia] });
  });

  it.each([
    [{ name: '  ' }, "User group name can't be empty!"],
    [{ name: 'x'.repeat(101) }, 'User group name cannot exceed 100 characters.'],
    [{ name: 'role:mine' }, "User group name cannot start with 'role:'."],
    [{ name: '@team' }, "User group name cannot start with '@'."],
    [{ members: [999] }, 'Invalid user ID: 999'],
    [{ members: [1] }, 'Invalid user ID: 1'],
    [{ subgroups: [999] }, 'Invalid user group ID: 999'],
    [{ description: 'd'.repeat(1025) }, 'description is too long (limit: 1024 characters)'],
    [{ can_mention_group: 8 }, "'can_mention_group' setting cannot be set to 'role:internet' group."],
    [{ can_manage_group: GROUP_EVERYONE }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
    [{ can_join_group: 'x' }, 'can_join_group is not valid JSON'],
  ])('refuses %j and creates nothing', async (params, msg) => {
    await refused(() => realm.as('mark').post('/user_groups/create', { name: 'team', description: '', members: [], ...params }), error(msg));
  });

  it('refuses a name already taken, ignoring case', async () => {
    await createGroup();
    await refused(
      () => realm.as('mia').post('/user_groups/create', { name: 'Design-Team', description: '', members: [] }),
      error("User group 'Design-Team' already exists."),
    );
  });

  it('requires the members argument', async () => {
    await refused(() => realm.as('mark').post('/user_groups/create', { name: 'x', description: '' }), {
      ...error("Missing 'members' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'members',
    });
  });

  it('refuses guests and bots', async () => {
    const params = { name: 'x', description: '', members: [] };
    await refused(() => realm.as('gail').post('/user_groups/create', params), error('Not allowed for guest users'));
    await refused(() => realm.as('bot').post('/user_groups/create', params), error('This endpoint does not accept bot requests.'));
  });
});

describe('GET /user_groups', () => {
  it('lists the role groups with their members by role', async () => {
    const { status, body } = await realm.as('mark').get('/user_groups');
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.user_groups.map((g: Record<string, unknown>) => [g.name, g]));
    expect(byName['role:owners']).toMatchObject({ id: GROUP_OWNERS, members: [IDS.olivia], direct_subgroup_ids: [], is_system_group: true });
    expect(byName['role:administrators']).toMatchObject({ members: [IDS.adam], direct_subgroup_ids: [GROUP_OWNERS] });
    expect(byName['role:everyone']).toMatchObject({ members: [IDS.gail], direct_subgroup_ids: [GROUP_MEMBERS] });
  });

  it('leaves deactivated groups out unless include_deactivated_groups', async () => {
    const id = await createGroup();
    await realm.as('olivia').post(`/user_groups/${id}/deactivate`);
    const without = await realm.as('mark').get('/user_groups');
    expect(without.body.user_groups.map((g: { id: number }) => g.id)).not.toContain(id);
    const withThem = await realm.as('mark').get('/user_groups', { include_deactivated_groups: true });
    expect(withThem.body.user_groups.at(-1)).toMatchObject({ id, deactivated: true });
  });

  it('agrees with the register realm_user_groups section', async () => {
    await createGroup();
    const list = await realm.as('mark').get('/user_groups');
    const register = await realm.as('mark').post('/register', { fetch_event_types: ['realm_user_groups'] });
    expect(register.body.realm_user_groups).toEqual(list.body.user_groups);
  });

  it('is refused to guests', async () => {
    expect((await realm.as('gail').get('/user_groups')).body).toEqual(error('Not allowed for guest users'));
  });
});

describe('GET /user_groups/{id}/members', () => {
  it('gives direct members only when asked', async () => {
    const inner = await createGroup();
    const outer = await createGroup({ name: 'outer', members: [IDS.adam], subgroups: [inner] });
    const direct = await realm.as('mia').get(`/user_groups/${outer}/members`, { direct_member_only: true });
    expect(direct.body.members).toEqual([IDS.adam]);
    const all = await realm.as('mia').get(`/user_groups/${outer}/members`);
    expect(all.body.members).toEqual([IDS.adam, IDS.mark, IDS.mia]);
  });

  it('counts members of role groups recursively', async () => {
    const { body } = await realm.as('mia').get(`/user_groups/${GROUP_ADMINISTRATORS}/members`);
    expect(body.members).toEqual([IDS.olivia, IDS.adam]);
  });

  it('refuses an unknown group', async () => {
    expect((await realm.as('mia').get('/user_groups/999/members')).body).toEqual(error('Invalid user group'));
  });
});

describe('PATCH /user_groups/{id}', () => {
  it('renames and redescribes, one update event per property', async () => {
    const id = await createGroup();
    const queue = openQueue(realm.engine, IDS.gail);
    const { status, body } = await realm.as('mark').patch(`/user_groups/${id}`, { name: 'designers', description: 'New' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(queue.events).toEqual([
      { id: 0, type: 'user_group', op: 'update', group_id: id, data: { name: 'designers' } },
      { id: 1, type: 'user_group', op: 'update', group_id: id, data: { description: 'New' } },
    ]);
    expect(await group(id)).toMatchObject({ name: 'designers', description: 'New' });
    // The new name is taken whatever its case.
    await refused(
      () => realm.as('mia').post('/user_groups/create', { name: 'DESIGNERS', description: '', members: [] }),
      error("User group 'DESIGNERS' already exists."),
    );
  });

  it('sends nothing when the values do not change', async () => {
    const id = await createGroup();
    const queue = openQueue(realm.engine, IDS.gail);
    expect((await realm.as('mark').patch(`/user_groups/${id}`, { name: 'design-team' })).body).toEqual(SUCCESS);
    expect(queue.events).toEqual([]);
    expect((await group(id)).name).toBe('design-team');
  });

  it('lets the organization owners manage any group, but not other members', async () => {
    const id = await createGroup();
    expect((await realm.as('olivia').patch(`/user_groups/${id}`, { description: 'by the owner' })).body).toEqual(SUCCESS);
    expect((await group(id)).description).toBe('by the owner');
    for (const user of ['mia', 'adam'] as const) {
      await refused(() => realm.as(user).patch(`/user_groups/${id}`, { description: 'x' }), error('Insufficient permission'));
    }
  });

  it.each([
    [`/user_groups/${GROUP_MEMBERS}`, { name: 'x' }, 'Insufficient permission'],
    ['/user_groups/999', { name: 'x' }, 'Invalid user group'],
    [`/user_groups/${FIRST_GROUP}`, {}, 'No new data supplied'],
    [`/user_groups/${FIRST_GROUP}`, { name: 'role:x' }, "User group name cannot start with 'role:'."],
  ])('refuses PATCH %s %j', async (path, params, msg) => {
    await createGroup();
    await refused(() => realm.as('olivia').patch(path, params), error(msg));
  });
});

describe('POST /user_groups/{id}/members', () => {
  it('adds and removes members, with events and notification bot messages', async () => {
    const id = await createGroup();
    const queue = openQueue(realm.engine, IDS.olivia);
    const { status, body } = await realm.as('mark').post(`/user_groups/${id}/members`, { add: [IDS.olivia], delete: [IDS.mia] });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await directMembers(id)).toEqual([IDS.olivia, IDS.mark]);
    expect(queue.events.slice(0, 2)).toEqual([
      { id: 0, type: 'user_group', op: 'add_members', group_id: id, user_ids: [IDS.olivia] },
      { id: 1, type: 'user_group', op: 'remove_members', group_id: id, user_ids: [IDS.mia] },
    ]);
    const dm = queue.events[2];
    expect(dm).toMatchObject({ type: 'message', message: { sender_id: 1, type: 'private' } });
    expect((dm.message as { content: string }).content).toContain('added you to the group');
  });

  it('lets a member leave by can_leave_group, but not remove others', async () => {
    const id = await createGroup();
    await refused(() => realm.as('mia').post(`/user_groups/${id}/members`, { delete: [IDS.mark] }), error('Insufficient permission'));
    expect((await realm.as('mia').post(`/user_groups/${id}/members`, { delete: [IDS.mia] })).body).toEqual(SUCCESS);
    expect(await directMembers(id)).toEqual([IDS.mark]);
  });

  it('lets a user join only through can_join_group', async () => {
    const id = await createGroup({ can_join_group: GROUP_MEMBERS });
    expect((await realm.as('adam').post(`/user_groups/${id}/members`, { add: [IDS.adam] })).body).toEqual(SUCCESS);
    expect(await directMembers(id)).toEqual([IDS.adam, IDS.mark, IDS.mia]);
    await refused(() => realm.as('adam').post(`/user_groups/${id}/members`, { add: [IDS.mona] }), error('Insufficient permission'));
  });

  it('adds and removes subgroups, refusing cycles', async () => {
    const inner = await createGroup();
    const outer = await createGroup({ name: 'outer', members: [] });
    const queue = openQueue(realm.engine, IDS.mia);
    expect((await realm.as('mark').post(`/user_groups/${outer}/members`, { add_subgroups: [inner] })).body).toEqual(SUCCESS);
    expect(queue.events).toEqual([{ id: 0, type: 'user_group', op: 'add_subgroups', group_id: outer, direct_subgroup_ids: [inner] }]);
    expect((await group(outer)).direct_subgroup_ids).toEqual([inner]);
    await refused(
      () => realm.as('mark').post(`/user_groups/${inner}/members`, { add_subgroups: [outer] }),
      error(`User group ${inner} is already a subgroup of one of the passed subgroups.`),
    );
    await refused(
      () => realm.as('mark').post(`/user_groups/${outer}/members`, { add_subgroups: [inner] }),
      error(`User group ${inner} is already a subgroup of this group.`),
    );
    expect((await realm.as('mark').post(`/user_groups/${outer}/members`, { delete_subgroups: [inner] })).body).toEqual(SUCCESS);
    expect(queue.events[1]).toEqual({ id: 1, type: 'user_group', op: 'remove_subgroups', group_id: outer, direct_subgroup_ids: [inner] });
    expect((await group(outer)).direct_subgroup_ids).toEqual([]);
    await refused(
      () => realm.as('mark').post(`/user_groups/${outer}/members`, { delete_subgroups: [inner] }),
      error(`User group ${inner} is not a subgroup of this group.`),
    );
  });

  it.each([
    [{}, 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'],
    [{ add: [IDS.mia] }, `User ${IDS.mia} is already a member of this group`],
    [{ delete: [IDS.adam] }, `There is no member '${IDS.adam}' in this user group`],
    [{ add: [999] }, 'Invalid user ID: 999'],
    [{ add: [IDS.olivia], delete: [IDS.adam] }, `There is no member '${IDS.adam}' in this user group`],
  ])('refuses %j and changes nothing', async (params, msg) => {
    const id = await createGroup();
    await refused(() => realm.as('mark').post(`/user_groups/${id}/members`, params), error(msg));
  });

  it('refuses changes to system groups and to other members without permission', async () => {
    const id = await createGroup();
    await refused(() => realm.as('olivia').post(`/user_groups/${GROUP_MEMBERS}/members`, { add: [IDS.gail] }), error('Insufficient permission'));
    await refused(() => realm.as('mia').post(`/user_groups/${id}/members`, { add: [IDS.adam] }), error('Insufficient permission'));
    await refused(() => realm.as('gail').post(`/user_groups/${id}/members`, { add: [IDS.gail] }), error('Not allowed for guest users'));
  });
});
