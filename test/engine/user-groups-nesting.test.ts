import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GROUP_ADMINISTRATORS, GROUP_MEMBERS, GROUP_OWNERS } from '../../src/engine/permissions/system-groups.ts';
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
/** Every active human and bot of the test realm: who hears about groups. */
const EVERYONE = [IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.mia, IDS.gail, IDS.bot];

async function createGroup(name: string, params: Record<string, unknown> = {}): Promise<number> {
  const { body } = await realm.as('mark').post('/user_groups/create', { name, description: '', members: [IDS.mark], ...params });
  expect(body.result).toBe('success');
  return body.group_id as number;
}

/** design ⊂ leads ⊂ company, with Mia directly in design only. */
async function nestedGroups() {
  const design = await createGroup('design', { members: [IDS.mia] });
  const leads = await createGroup('leads', { subgroups: [design] });
  const company = await createGroup('company', { subgroups: [leads] });
  return { design, leads, company };
}

const subgroups = (id: number, params: Record<string, unknown> = {}) => realm.as('mia').get(`/user_groups/${id}/subgroups`, params);
const isMember = (id: number, userId: number, params: Record<string, unknown> = {}) =>
  realm.as('mia').get(`/user_groups/${id}/members/${userId}`, params);

describe('GET /user_groups/{user_group_id}/subgroups', () => {
  it('lists every nested subgroup, or only the direct ones', async () => {
    const { design, leads, company } = await nestedGroups();
    expect(await subgroups(company)).toEqual({ status: 200, body: { ...SUCCESS, subgroups: [design, leads] } });
    expect((await subgroups(company, { direct_subgroup_only: true })).body.subgroups).toEqual([leads]);
    expect((await subgroups(design)).body.subgroups).toEqual([]);
    expect((await subgroups(GROUP_ADMINISTRATORS, { direct_subgroup_only: true })).body.subgroups).toEqual([GROUP_OWNERS]);
  });

  it('refuses an unknown or deactivated group and guests', async () => {
    const { design } = await nestedGroups();
    await refused(() => subgroups(9999), error('Invalid user group'));
    await refused(() => realm.as('gail').get(`/user_groups/${design}/subgroups`), error('Not allowed for guest users'));
    const lone = await createGroup('lone');
    expect((await realm.as('mark').post(`/user_groups/${lone}/deactivate`)).body).toEqual(SUCCESS);
    await refused(() => subgroups(lone), error('User group is deactivated.'));
  });
});

describe('POST /user_groups/{user_group_id}/subgroups', () => {
  it('adds and removes subgroups in one request, with one event each', async () => {
    const { design, leads } = await nestedGroups();
    const other = await createGroup('other');
    const queues = EVERYONE.map((id) => openQueue(realm.engine, id));
    const { status, body } = await realm.as('mark').post(`/user_groups/${leads}/subgroups`, { add: [other], delete: [design] });
    expect({ status, body }).toEqual({ status: 200, body: SUCCESS });
    for (const queue of queues) {
      expect(queue.events).toEqual([
        { id: 0, type: 'user_group', op: 'add_subgroups', group_id: leads, direct_subgroup_ids: [other] },
        { id: 1, type: 'user_group', op: 'remove_subgroups', group_id: leads, direct_subgroup_ids: [design] },
      ]);
    }
    expect((await subgroups(leads)).body.subgroups).toEqual([other]);
  });

  it('refuses a cycle, the group itself, a subgroup twice and removing a group that is no subgroup', async () => {
    const { design, leads, company } = await nestedGroups();
    const post = (id: number, params: Record<string, unknown>) => () => realm.as('mark').post(`/user_groups/${id}/subgroups`, params);
    await refused(post(design, { add: [company] }), error(`User group ${design} is already a subgroup of one of the passed subgroups.`));
    await refused(post(design, { add: [design] }), error(`User group ${design} is already a subgroup of one of the passed subgroups.`));
    await refused(post(leads, { add: [design] }), error(`User group ${design} is already a subgroup of this group.`));
    await refused(post(company, { delete: [design] }), error(`User group ${design} is not a subgroup of this group.`));
    await refused(post(company, { add: [9999] }), error('Invalid user group ID: 9999'));
    await refused(post(company, {}), error('Nothing to do. Specify at least one of "add" or "delete".'));
    await refused(post(GROUP_MEMBERS, { add: [design] }), error('Insufficient permission'));
  });

  it('lets whoever may add members add subgroups, but only managers remove them', async () => {
    const { design } = await nestedGroups();
    const open = await createGroup('open', { can_add_members_group: GROUP_MEMBERS });
    expect((await realm.as('mia').post(`/user_groups/${open}/subgroups`, { add: [design] })).body).toEqual(SUCCESS);
    await refused(() => realm.as('mia').post(`/user_groups/${open}/subgroups`, { delete: [design] }), error('Insufficient permission'));
    expect((await realm.as('mark').post(`/user_groups/${open}/subgroups`, { delete: [design] })).body).toEqual(SUCCESS);
  });
});

describe('GET /user_groups/{user_group_id}/members/{user_id}', () => {
  it('answers membership through subgroups, or direct membership only', async () => {
    const { design, company } = await nestedGroups();
    expect(await isMember(company, IDS.mia)).toEqual({ status: 200, body: { ...SUCCESS, is_user_group_member: true } });
    expect((await isMember(company, IDS.mia, { direct_member_only: true })).body.is_user_group_member).toBe(false);
    expect((await isMember(design, IDS.mia, { direct_member_only: true })).body.is_user_group_member).toBe(true);
    expect((await isMember(design, IDS.adam)).body.is_user_group_member).toBe(false);
    expect((await isMember(GROUP_ADMINISTRATORS, IDS.olivia)).body.is_user_group_member).toBe(true);
    expect((await isMember(GROUP_ADMINISTRATORS, IDS.olivia, { direct_member_only: true })).body.is_user_group_member).toBe(false);
  });

  it('refuses bots, unknown and deactivated users, and unknown groups', async () => {
    const { design } = await nestedGroups();
    await refused(() => isMember(design, IDS.bot), error('No such user'));
    await refused(() => isMember(design, 9999), error('No such user'));
    await refused(() => isMember(9999, IDS.mia), error('Invalid user group'));
    expect((await realm.as('olivia').delete(`/users/${IDS.gail}`)).status).toBe(200);
    await refused(() => isMember(design, IDS.gail), error('User is deactivated'));
  });
});

describe('POST /user_groups/{user_group_id}/deactivate', () => {
  it('deactivates a group nobody uses and tells every active user', async () => {
    const lone = await createGroup('lone');
    const queues = EVERYONE.map((id) => openQueue(realm.engine, id));
    expect(await realm.as('mark').post(`/user_groups/${lone}/deactivate`)).toEqual({ status: 200, body: SUCCESS });
    for (const queue of queues) {
      expect(queue.events).toEqual([{ id: 0, type: 'user_group', op: 'update', group_id: lone, data: { deactivated: true } }]);
    }
    const listed = (await realm.as('mia').get('/user_groups')).body.user_groups as { id: number }[];
    expect(listed.some((g) => g.id === lone)).toBe(false);
    const all = (await realm.as('mia').get('/user_groups', { include_deactivated_groups: true })).body.user_groups as { id: number }[];
    expect(all.find((g) => g.id === lone)).toMatchObject({ deactivated: true });
  });

  it('is refused while the group is a subgroup or held by a channel, group or realm setting, naming each use', async () => {
    const { design, leads } = await nestedGroups();
    const mentioners = await createGroup('mentioners', { can_mention_group: { direct_members: [], direct_subgroups: [design] } });
    expect((await realm.as('adam').patch(`/streams/${IDS.design}`, { can_send_message_group: { new: design } })).status).toBe(200);
    // No endpoint here changes realm settings (PATCH /realm is not ours), so the row is set directly.
    await realm.as('olivia').patch('/realm', { can_invite_users_group: { new: { direct_members: [], direct_subgroups: [design] } } });
    await refused(() => realm.as('mark').post(`/user_groups/${design}/deactivate`), {
      ...error('Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE'),
      objections: [
        { type: 'subgroup', supergroup_ids: [leads] },
        { type: 'channel', channel_id: IDS.design, settings: ['can_send_message_group'] },
        { type: 'user_group', group_id: mentioners, settings: ['can_mention_group'] },
        { type: 'realm', settings: ['can_invite_users_group'] },
      ],
    });
  });

  it('refuses a deactivated, system or unknown group and callers who do not manage it', async () => {
    const lone = await createGroup('lone');
    const deactivate = (id: number, as: 'mark' | 'mia' = 'mark') => () => realm.as(as).post(`/user_groups/${id}/deactivate`);
    await refused(deactivate(lone, 'mia'), error('Insufficient permission'));
    await refused(deactivate(GROUP_MEMBERS), error('Insufficient permission'));
    await refused(deactivate(9999), error('Invalid user group'));
    expect((await deactivate(lone)()).body).toEqual(SUCCESS);
    await refused(deactivate(lone), error('User group is deactivated.'));
  });
});
