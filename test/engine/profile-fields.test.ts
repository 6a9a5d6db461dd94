import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const createField = (params: Record<string, unknown>, as: TestUser = 'adam') => realm.as(as).post('/realm/profile_fields', params);
/** The fields, in their order, as GET /realm/profile_fields lists them. */
const storedFields = async () => (await realm.as('mark').get('/realm/profile_fields')).body.custom_fields as Record<string, any>[];
/** Every user's values, by user then field, from GET /users with the profile data. */
async function storedValues(): Promise<{ user_id: number; field_id: number; value: string }[]> {
  const { body } = await realm.as('mark').get('/users', { include_custom_profile_fields: true });
  return body.members.flatMap((user: { user_id: number; profile_data?: Record<string, { value: string }> }) =>
    Object.entries(user.profile_data ?? {}).map(([field, { value }]) => ({ user_id: user.user_id, field_id: Number(field), value })),
  );
}
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const SUCCESS = { result: 'success', msg: '' };

type FieldList = { fields: { id: number; name: string }[] };
const fieldsOf = (event: unknown) => (event as FieldList).fields;

const CHOICES = { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } };

describe('POST /realm/profile_fields', () => {
  test('creates a field, answers its id, and sends every active user the whole field list', async () => {
    const guest = openQueue(realm.engine, IDS.gail);
    const { status, body } = await createField({ name: ' Phone ', hint: 'Work phone', field_type: 1 });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', id: 1 });
    const phone = { id: 1, name: 'Phone', type: 1, hint: 'Work phone', field_data: '', order: 1, required: false, editable_by_user: true };
    expect(guest.events).toEqual([{ id: 0, type: 'custom_profile_fields', fields: [phone] }]);
    expect((await realm.as('gail').get('/realm/profile_fields')).body).toEqual({ result: 'success', msg: '', custom_fields: [phone] });
  });

  test('creates every field type, each placed last', async () => {
    const fields = [
      { name: 'Short', field_type: 1 },
      { name: 'Long', field_type: 2 },
      { name: 'Editor', field_type: 3, field_data: CHOICES },
      { name: 'Birthday', field_type: 4 },
      { name: 'Blog', field_type: 5 },
      { name: 'Mentor', field_type: 6 },
      { name: 'Mastodon', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://mastodon.test/@%(username)s' } },
      { name: 'Pronouns', field_type: 8 },
    ];
    for (const [index, field] of fields.entries()) expect((await createField(field)).body).toEqual({ ...SUCCESS, id: index + 1 });
    const { body } = await realm.as('mark').get('/realm/profile_fields');
    expect(body.custom_fields.map((f: { type: number; order: number; field_data: string }) => [f.type, f.order, f.field_data])).toEqual([
      [1, 1, ''],
      [2, 2, ''],
      [3, 3, JSON.stringify(CHOICES)],
      [4, 4, ''],
      [5, 5, ''],
      [6, 6, ''],
      [7, 7, '{"subtype":"custom","url_pattern":"https://mastodon.test/@%(username)s"}'],
      [8, 8, ''],
    ]);
  });

  test('stores the flags it is given and shows display_in_profile_summary only when true', async () => {
    await createField({ name: 'Team', field_type: 1, display_in_profile_summary: true, required: true, editable_by_user: false });
    expect((await realm.as('mark').get('/realm/profile_fields')).body.custom_fields).toEqual([
      { id: 1, name: 'Team', type: 1, hint: '', field_data: '', order: 1, display_in_profile_summary: true, required: true, editable_by_user: false },
    ]);
  });

  test('takes the name and hint of a built-in external account from its subtype', async () => {
    await createField({ field_type: 7, field_data: { subtype: 'github' } });
    expect((await storedFields())[0]).toMatchObject({ name: 'GitHub', hint: 'Enter your GitHub username', field_data: '{"subtype":"github"}' });
  });

  test.each([
    [{ field_type: 3, field_data: {} }, 'Field must have at least one choice.'],
    [{ field_type: 3, field_data: { vim: ['1'] } }, 'field_data is not a dict'],
    [{ field_type: 3, field_data: { vim: { order: '1' } } }, 'text key is missing from field_data'],
    [{ field_type: 3, field_data: { vim: { text: 1, order: '1' } } }, 'field_data["text"] is not a string'],
    [{ field_type: 3, field_data: { vim: { text: ' ', order: '1' } } }, 'field_data["text"] cannot be blank.'],
    [{ field_type: 3, field_data: { vim: { text: 'Vim', order: '1', color: 'red' } } }, 'Unexpected arguments: color'],
    [{ field_type: 3, field_data: { ' ': { text: 'Vim', order: '1' } } }, "'value' cannot be blank."],
    [{ field_type: 3, field_data: { a: { text: 'Vim', order: '1' }, b: { text: 'Vim', order: '2' } } }, 'Field must not have duplicate choices.'],
    [{ field_type: 3, field_data: '[1]' }, 'field_data is not a dict'],
    [{ field_type: 7, field_data: { subtype: 'myspace' } }, 'Invalid external account type'],
    [{ field_type: 7, field_data: { subtype: 'custom' } }, 'Custom external account must define URL pattern'],
    [{ field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x.test/' } }, "URL pattern must contain '%(username)s'."],
    [{ field_type: 7, field_data: { subtype: 'custom', url_pattern: 'nonsense %(username)s' } }, 'field_data["url_pattern"] is not a URL'],
  ])('refuses invalid field_data %j', async (params, msg) => {
    await refused(() => createField({ name: 'Field', ...params }), error(msg));
  });

  test('refuses a blank label, a too long name or hint, a taken label and an unknown type', async () => {
    await createField({ name: 'Phone', field_type: 1 });
    const refusals: [Record<string, unknown>, string][] = [
      [{ name: '  ', field_type: 1 }, 'Label cannot be blank.'],
      [{ field_type: 1 }, 'Label cannot be blank.'],
      [{ name: 'n'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
      [{ name: 'Fax', hint: 'h'.repeat(81), field_type: 1 }, 'hint is too long (limit: 80 characters)'],
      [{ name: 'Phone', field_type: 2 }, 'A field with that label already exists.'],
      [{ name: 'Odd', field_type: 9 }, 'Invalid field type.'],
    ];
    for (const [params, msg] of refusals) await refused(() => createField(params), error(msg));
    await refused(() => createField({ name: 'Odd' }), { ...error("Missing 'field_type' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'field_type' });
  });

  test('allows at most two fields in the profile summary, and never long text or person pickers', async () => {
    await createField({ name: 'A', field_type: 1, display_in_profile_summary: true });
    await createField({ name: 'B', field_type: 5, display_in_profile_summary: true });
    await refused(
      () => createField({ name: 'C', field_type: 1, display_in_profile_summary: true }),
      error('Only 2 custom profile fields can be displayed in the profile summary.'),
    );
    await realm.as('adam').patch('/realm/profile_fields/2', { display_in_profile_summary: false });
    for (const fieldType of [2, 6]) {
      await refused(
        () => createField({ name: `T${fieldType}`, field_type: fieldType, display_in_profile_summary: true }),
        error('Field type not supported for display in profile summary.'),
      );
    }
  });

  test.each(['mona', 'mark', 'gail'] as const)('refuses %s, who is not an administrator', async (caller) => {
    await refused(() => createField({ name: 'Phone', field_type: 1 }, caller), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });

  test('lets the owner create fields too', async () => {
    expect((await createField({ name: 'Phone', field_type: 1 }, 'olivia')).body).toEqual({ ...SUCCESS, id: 1 });
    expect((await storedFields()).map((f) => [f.id, f.name])).toEqual([[1, 'Phone']]);
  });
});

describe('PATCH /realm/profile_fields/{field_id}', () => {
  beforeEach(async () => {
    await createField({ name: 'Phone', field_type: 1 });
    await createField({ name: 'Editor', field_type: 3, field_data: CHOICES });
  });

  test('changes only the given properties and sends the field list', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const { body } = await realm.as('adam').patch('/realm/profile_fields/1', { name: 'Mobile', required: true, display_in_profile_summary: true });
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(mark.events).toHaveLength(1);
    const mobile = { id: 1, name: 'Mobile', type: 1, hint: '', field_data: '', order: 1, display_in_profile_summary: true, required: true, editable_by_user: true };
    expect(fieldsOf(mark.events[0])[0]).toEqual(mobile);
    expect((await storedFields())[0]).toEqual(mobile);
  });

  test("drops users' values for choices that no longer exist", async () => {
    await realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 2, value: 'emacs' }] });
    await realm.as('mia').patch('/users/me/profile_data', { data: [{ id: 2, value: 'vim' }] });
    await realm.as('adam').patch('/realm/profile_fields/2', { field_data: { vim: CHOICES.vim } });
    expect(await storedValues()).toEqual([{ user_id: IDS.mia, field_id: 2, value: 'vim' }]);
  });

  test('refuses an unknown field, a blank or taken label, bad choices and non-administrators, changing nothing', async () => {
    const refusals: [string, Record<string, unknown>, TestUser, ReturnType<typeof error>][] = [
      ['/realm/profile_fields/9', { name: 'X' }, 'adam', error('Field id 9 not found.')],
      ['/realm/profile_fields/1', { name: ' ' }, 'adam', error('Label cannot be blank.')],
      ['/realm/profile_fields/1', { name: 'Editor' }, 'adam', error('A field with that label already exists.')],
      ['/realm/profile_fields/2', { field_data: {} }, 'adam', error('Field must have at least one choice.')],
      ['/realm/profile_fields/1', { name: 'X' }, 'mona', error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL')],
    ];
    for (const [path, params, caller, expected] of refusals) await refused(() => realm.as(caller).patch(path, params), expected);
  });

  test('keeps the summary limit and the summary rule for long text', async () => {
    await createField({ name: 'A', field_type: 1, display_in_profile_summary: true });
    await createField({ name: 'B', field_type: 1, display_in_profile_summary: true });
    await createField({ name: 'Bio', field_type: 2 });
    await refused(
      () => realm.as('adam').patch('/realm/profile_fields/1', { display_in_profile_summary: true }),
      error('Only 2 custom profile fields can be displayed in the profile summary.'),
    );
    // Field 3 is already in the summary: asking again is no new field.
    expect((await realm.as('adam').patch('/realm/profile_fields/3', { display_in_profile_summary: true })).body).toEqual(SUCCESS);
    await realm.as('adam').patch('/realm/profile_fields/4', { display_in_profile_summary: false });
    await refused(
      () => realm.as('adam').patch('/realm/profile_fields/5', { display_in_profile_summary: true }),
      error('Field type not supported for display in profile summary.'),
    );
  });

  test('lets a built-in external account change its flags but not its name', async () => {
    await createField({ field_type: 7, field_data: { subtype: 'github' } });
    await refused(() => realm.as('adam').patch('/realm/profile_fields/3', { name: 'Code' }), error('Default custom field cannot be updated.'));
    expect((await realm.as('adam').patch('/realm/profile_fields/3', { required: true })).body).toEqual(SUCCESS);
    expect((await storedFields())[2]).toMatchObject({ name: 'GitHub', required: true });
  });
});

describe('DELETE /realm/profile_fields/{field_id}', () => {
  test("deletes the field with every user's value and sends the remaining fields", async () => {
    await createField({ name: 'Phone', field_type: 1 });
    await createField({ name: 'Blog', field_type: 5 });
    await realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 1, value: '123' }, { id: 2, value: 'https://blog.test' }] });
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await realm.as('adam').delete('/realm/profile_fields/1')).body).toEqual({ result: 'success', msg: '' });
    expect((await storedFields()).map((f) => f.id)).toEqual([2]);
    expect(await storedValues()).toEqual([{ user_id: IDS.mark, field_id: 2, value: 'https://blog.test' }]);
    expect(mia.events).toEqual([{ id: 0, type: 'custom_profile_fields', fields: [expect.objectContaining({ id: 2, name: 'Blog' })] }]);
  });

  test('refuses an unknown field and non-administrators', async () => {
    await createField({ name: 'Phone', field_type: 1 });
    await refused(() => realm.as('adam').delete('/realm/profile_fields/7'), error('Field id 7 not found.'));
    await refused(() => realm.as('mark').delete('/realm/profile_fields/1'), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });
});

describe('PATCH /realm/profile_fields (reorder)', () => {
  beforeEach(async () => {
    for (const name of ['A', 'B', 'C']) await createField({ name, field_type: 1 });
  });

  test('orders the fields as listed and sends them in the new order', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('adam').patch('/realm/profile_fields', { order: [3, 1, 2] })).body).toEqual(SUCCESS);
    const listed = (await realm.as('mark').get('/realm/profile_fields')).body.custom_fields;
    expect(listed.map((f: { id: number; order: number }) => [f.id, f.order])).toEqual([[3, 0], [1, 1], [2, 2]]);
    expect(fieldsOf(mark.events[0]).map((f) => f.id)).toEqual([3, 1, 2]);
  });

  test('refuses an order that leaves a field out, and non-administrators', async () => {
    await refused(() => realm.as('adam').patch('/realm/profile_fields', { order: [3, 1] }), error('Invalid order mapping.'));
    await refused(
      () => realm.as('mona').patch('/realm/profile_fields', { order: [3, 2, 1] }),
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    );
  });
});

describe('PATCH /users/me/profile_data', () => {
  beforeEach(async () => {
    await createField({ name: 'Phone', field_type: 1 });
    await createField({ name: 'Bio', field_type: 2 });
    await createField({ name: 'Editor', field_type: 3, field_data: CHOICES });
    await createField({ name: 'Birthday', field_type: 4 });
    await createField({ name: 'Blog', field_type: 5 });
    await createField({ name: 'Mentor', field_type: 6 });
    await createField({ name: 'Badge', field_type: 1, editable_by_user: false });
  });

  test("sets the caller's values, renders Markdown fields, and tells every active user", async () => {
    const gail = openQueue(realm.engine, IDS.gail);
    const { body } = await realm.as('mark').patch('/users/me/profile_data', {
      data: [{ id: 1, value: '**555**' }, { id: 3, value: 'vim' }, { id: 6, value: [IDS.mia] }],
    });
    expect(body).toEqual({ result: 'success', msg: '' });
    const person = (field: Record<string, unknown>) => ({ type: 'realm_user', op: 'update', person: { user_id: IDS.mark, custom_profile_field: field } });
    expect(gail.events).toEqual([
      { id: 0, ...person({ id: 1, value: '**555**', rendered_value: '<p><strong>555</strong></p>' }) },
      { id: 1, ...person({ id: 3, value: 'vim' }) },
      { id: 2, ...person({ id: 6, value: `[${IDS.mia}]` }) },
    ]);
    const { body: read } = await realm.as('mia').get(`/users/${IDS.mark}`, { include_custom_profile_fields: true });
    expect(read.user.profile_data).toEqual({
      1: { value: '**555**', rendered_value: '<p><strong>555</strong></p>' },
      3: { value: 'vim' },
      6: { value: `[${IDS.mia}]` },
    });
  });

  test('sends nothing for a value that does not change, and clears values given as empty or null', async () => {
    await realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 4, value: '2000-01-31' }, { id: 5, value: 'https://blog.test' }] });
    const mark = openQueue(realm.engine, IDS.mark);
    await realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 4, value: '2000-01-31' }, { id: 5, value: '' }, { id: 3, value: null }] });
    expect(mark.events).toEqual([{ id: 0, type: 'realm_user', op: 'update', person: { user_id: IDS.mark, custom_profile_field: { id: 5, value: null } } }]);
    expect(await storedValues()).toEqual([{ user_id: IDS.mark, field_id: 4, value: '2000-01-31' }]);
  });

  test.each([
    [{ id: 99, value: 'x' }, 'Field id 99 not found.'],
    [{ id: 1, value: 'x'.repeat(51) }, 'Phone is too long (limit: 50 characters)'],
    [{ id: 2, value: 'x'.repeat(501) }, 'Bio is too long (limit: 500 characters)'],
    [{ id: 3, value: 'ed' }, "'ed' is not a valid choice for 'Editor'."],
    [{ id: 4, value: '2000-02-31' }, 'Birthday is not a date'],
    [{ id: 5, value: 'blog dot test' }, 'Blog is not a URL'],
    [{ id: 6, value: 'mia' }, 'User IDs is not a list'],
    [{ id: 6, value: [999] }, 'Invalid user ID: 999'],
    [{ id: 6, value: [IDS.bot] }, `User with ID ${IDS.bot} is a bot`],
    [{ id: 1, value: [1] }, 'Phone is not a string'],
    [{ id: 7, value: 'gold' }, 'You are not allowed to change this field. Contact an administrator to update it.'],
  ])('refuses %j and changes nothing', async (entry, msg) => {
    await refused(() => realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 1, value: 'kept?' }, entry] }), error(msg));
  });

  test('refuses a deactivated person in a person picker', async () => {
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    await refused(
      () => realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 6, value: [IDS.mia] }] }),
      error(`User with ID ${IDS.mia} is deactivated`),
    );
  });

  test('refuses malformed entries and bots', async () => {
    await refused(() => realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 1 }] }), error('data[0]["value"] is missing'));
    await refused(() => realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 1, value: 2 }] }), error('data[0]["value"] is not a string'));
    await refused(() => realm.as('bot').patch('/users/me/profile_data', { data: [{ id: 1, value: 'x' }] }), error('This endpoint does not accept bot requests.'));
  });

  test('lets administrators set fields that users may not edit', async () => {
    expect((await realm.as('adam').patch('/users/me/profile_data', { data: [{ id: 7, value: 'gold' }] })).body).toEqual(SUCCESS);
    expect(await storedValues()).toEqual([{ user_id: IDS.adam, field_id: 7, value: 'gold' }]);
  });
});

describe('DELETE /users/me/profile_data', () => {
  test("clears the caller's values for the given fields", async () => {
    await createField({ name: 'Phone', field_type: 1 });
    await realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 1, value: '555' }] });
    expect(await storedValues()).toEqual([{ user_id: IDS.mark, field_id: 1, value: '555' }]);
    expect((await realm.as('mark').delete('/users/me/profile_data', { data: [1] })).body).toEqual(SUCCESS);
    expect(await storedValues()).toEqual([]);
    await refused(() => realm.as('mark').delete('/users/me/profile_data', { data: [4] }), error('Field id 4 not found.'));
  });
});

describe('profile data in /register', () => {
  test('lists the fields and every human user\'s values, never a bot\'s', async () => {
    await createField({ name: 'Phone', field_type: 1 });
    await realm.as('mark').patch('/users/me/profile_data', { data: [{ id: 1, value: '555' }] });
    const { body } = await realm.as('mia').post('/register', { fetch_event_types: ['custom_profile_fields', 'realm_user'] });
    expect(body.custom_profile_fields).toEqual([
      { id: 1, name: 'Phone', type: 1, hint: '', field_data: '', order: 1, required: false, editable_by_user: true },
    ]);
    expect(body.custom_profile_field_types.SHORT_TEXT).toEqual({ id: 1, name: 'Text (short)' });
    const byId = new Map(body.realm_users.map((u: { user_id: number }) => [u.user_id, u]));
    expect((byId.get(IDS.mark) as { profile_data: unknown }).profile_data).toEqual({ 1: { value: '555', rendered_value: '<p>555</p>' } });
    expect((byId.get(IDS.mia) as { profile_data: unknown }).profile_data).toEqual({});
    expect(byId.get(IDS.bot)).not.toHaveProperty('profile_data');
  });
});
