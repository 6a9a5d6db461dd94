import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

export const usersAdminCases = caseSuite('users administration', (api) => {
  it('creates a custom profile field that users fill in and everyone reads in profile_data', async () => {
    const created = await api.as('adam').post('/realm/profile_fields', { name: 'Team', field_type: 1 });
    expect(created.status).toBe(200);
    const fieldId = created.body.id as number;
    expect((await api.as('gail').get('/realm/profile_fields')).body.custom_fields).toEqual([
      { id: fieldId, name: 'Team', type: 1, hint: '', field_data: '', order: fieldId, required: false, editable_by_user: true },
    ]);
    expect((await api.as('mia').patch('/users/me/profile_data', { data: [{ id: fieldId, value: 'Design' }] })).status).toBe(200);
    const read = await api.as('mark').get(`/users/${IDS.mia}`, { include_custom_profile_fields: true });
    expect(read.body.user.profile_data).toEqual({ [fieldId]: { value: 'Design', rendered_value: '<p>Design</p>' } });
  });

  it('lets administrators rename users and refuses everyone else', async () => {
    expect((await api.as('adam').patch(`/users/${IDS.mia}`, { full_name: 'Mia Maker' })).body).toEqual({ result: 'success', msg: '' });
    expect((await api.as('mark').patch(`/users/${IDS.mia}`, { full_name: 'Nope' })).body).toEqual(error('Insufficient permission'));
    expect((await api.as('mark').get(`/users/${IDS.mia}`)).body.user.full_name).toBe('Mia Maker');
  });

  it('refuses to deactivate the only owner', async () => {
    const refused = await api.as('olivia').delete(`/users/${IDS.olivia}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(error('Cannot deactivate the only organization owner'));
  });

  it("changes the caller's own settings, shown in the register user_settings section", async () => {
    expect((await api.as('mark').patch('/settings', { twenty_four_hour_time: true })).status).toBe(200);
    const state = await api.as('mark').post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } });
    expect(state.body.user_settings.twenty_four_hour_time).toBe(true);
  });
});
