import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIELD_TYPE, type ProfileField, shownValue } from '../../src/chat/state/profile-fields.ts';
import type { RealmState } from '../../src/chat/state/realm-state.ts';
import { registeredAppState } from '../support/registered-app-state.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

// The app's profile field state fed by a real engine's /register and /events, as the app registers.
let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const registeredState = () => registeredAppState(realm, 'mia');

async function createField(name: string, fieldType: number, fieldData?: unknown): Promise<number> {
  const answer = await realm.as('olivia').post('/realm/profile_fields', { name, field_type: fieldType, ...(fieldData ? { field_data: fieldData } : {}) });
  expect(answer.status).toBe(200);
  return answer.body.id as number;
}

describe('custom profile fields in the realm state', () => {
  it('follows the fields and a user’s values as events change them, and reads the same from /register', async () => {
    const { state, applyNewEvents } = await registeredState();
    const shift = await createField('Shift', FIELD_TYPE.SELECT, { early: { text: 'Early', order: '2' }, late: { text: 'Late', order: '1' } });
    const birthday = await createField('Birthday', FIELD_TYPE.DATE);
    const manager = await createField('Manager', FIELD_TYPE.USER);
    const website = await createField('Website', FIELD_TYPE.URL);
    const handle = await createField('Handle', FIELD_TYPE.EXTERNAL_ACCOUNT, { subtype: 'custom', url_pattern: 'https://example.com/u/%(username)s' });
    const about = await createField('About', FIELD_TYPE.LONG_TEXT);
    await applyNewEvents();
    expect(state.profileFields.fields.value.map((field) => field.name)).toEqual(['Shift', 'Birthday', 'Manager', 'Website', 'Handle', 'About']);
    expect(state.profileFields.fields.value[0]!.choices).toEqual([
      { key: 'late', text: 'Late' },
      { key: 'early', text: 'Early' },
    ]);

    const data = [
      { id: shift, value: 'early' },
      { id: birthday, value: '1990-02-28' },
      { id: manager, value: [IDS.olivia] },
      { id: website, value: 'https://mark.example/' },
      { id: handle, value: 'mark' },
      { id: about, value: 'I **like** tea' },
    ];
    expect((await realm.as('mark').patch('/users/me/profile_data', { data })).status).toBe(200);
    await applyNewEvents();
    const expected = [
      { name: 'Shift', shown: { kind: 'text', text: 'Early' } },
      { name: 'Birthday', shown: { kind: 'date', date: '1990-02-28' } },
      { name: 'Manager', shown: { kind: 'people', userIds: [IDS.olivia] } },
      { name: 'Website', shown: { kind: 'link', text: 'https://mark.example/', href: 'https://mark.example/' } },
      { name: 'Handle', shown: { kind: 'link', text: 'mark', href: 'https://example.com/u/mark' } },
      { name: 'About', shown: { kind: 'html', html: '<p>I <strong>like</strong> tea</p>' } },
    ];
    const shown = (target: RealmState) => target.profileFields.shownFor(IDS.mark).map(({ field, shown }) => ({ name: field.name, shown }));
    expect(shown(state)).toEqual(expected);
    // The user objects are left as they were: a value's change is the profile state's alone.
    expect(state.users.value.get(IDS.mark)).not.toHaveProperty('custom_profile_field');
    expect(shown((await registeredState()).state)).toEqual(expected);

    expect((await realm.as('mark').delete('/users/me/profile_data', { data: [shift, about] })).status).toBe(200);
    await realm.as('olivia').delete(`/realm/profile_fields/${website}`);
    await applyNewEvents();
    expect(shown(state).map((entry) => entry.name)).toEqual(['Birthday', 'Manager', 'Handle']);
  });
});

describe('how a value shows', () => {
  const field = (type: number, extra: Partial<ProfileField> = {}): ProfileField => ({
    id: 1,
    name: 'Field',
    type,
    hint: '',
    order: 1,
    editableByUser: true,
    choices: [],
    urlPattern: null,
    ...extra,
  });

  it('links only http(s) addresses', () => {
    expect(shownValue(field(FIELD_TYPE.URL), { value: 'javascript:alert(1)' })).toEqual({ kind: 'text', text: 'javascript:alert(1)' });
    expect(shownValue(field(FIELD_TYPE.URL), { value: 'ftp://files.example/' })).toEqual({ kind: 'text', text: 'ftp://files.example/' });
    expect(shownValue(field(FIELD_TYPE.EXTERNAL_ACCOUNT, { urlPattern: '%(username)s' }), { value: 'javascript:alert(1)' })).toEqual({
      kind: 'text',
      text: 'javascript:alert(1)',
    });
  });

  it('shows nothing for an empty value, a choice that is gone or an unreadable person list', () => {
    expect(shownValue(field(FIELD_TYPE.SHORT_TEXT), { value: '' })).toBeNull();
    expect(shownValue(field(FIELD_TYPE.SELECT, { choices: [{ key: 'a', text: 'A' }] }), { value: 'b' })).toBeNull();
    expect(shownValue(field(FIELD_TYPE.USER), { value: 'not json' })).toBeNull();
  });

  it('shows plain text where the server rendered nothing', () => {
    expect(shownValue(field(FIELD_TYPE.LONG_TEXT), { value: 'a <b>' })).toEqual({ kind: 'text', text: 'a <b>' });
    expect(shownValue(field(FIELD_TYPE.PRONOUNS), { value: 'she/her' })).toEqual({ kind: 'text', text: 'she/her' });
  });
});
