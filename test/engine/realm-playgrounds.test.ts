import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const RUST = { name: 'Rust playground', pygments_language: 'Rust', url_template: 'https://play.rust-lang.org/?code={code}' };
const error = (msg: string, extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code: 'BAD_REQUEST', ...extra });
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const add = (params: Record<string, unknown>) => realm.as('adam').post('/realm/playgrounds', params);
const playgrounds = async () => (await realm.as('gail').post('/register', { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds;

describe('POST /realm/playgrounds', () => {
  it('adds a playground, answers its id, and sends the whole list to every user', async () => {
    const watcher = openQueue(realm.engine, IDS.gail);
    const { status, body } = await add({ ...RUST, name: '  Rust playground ' });
    expect([status, body]).toEqual([200, { result: 'success', msg: '', id: 1 }]);
    expect(await playgrounds()).toEqual([{ id: 1, ...RUST }]);
    expect(watcher.events).toEqual([{ id: 0, type: 'realm_playgrounds', realm_playgrounds: [{ id: 1, ...RUST }] }]);
  });

  it('checks the URL template and the language as upstream, listing every field error', async () => {
    await refused(() => add({ ...RUST, url_template: 'https://play.example/?code={code' }), error('Invalid URL template.', { errors: { url_template: ['Invalid URL template.'] } }));
    await refused(
      () => add({ ...RUST, url_template: 'https://play.example/?c={other}' }),
      error('Missing the required variable "code" in the URL template', { errors: { __all__: ['Missing the required variable "code" in the URL template'] } }),
    );
    await refused(
      () => add({ ...RUST, url_template: 'https://play.example/{lang}?c={code}' }),
      error('"code" should be the only variable present in the URL template', { errors: { __all__: ['"code" should be the only variable present in the URL template'] } }),
    );
    await refused(() => add({ ...RUST, name: ' ', pygments_language: '' }), error('This field cannot be blank.', { errors: { name: ['This field cannot be blank.'], pygments_language: ['This field cannot be blank.'] } }));
    await refused(() => add({ ...RUST, pygments_language: 'Rust!' }), error('Invalid characters in pygments language'));
    await refused(() => add({ ...RUST, pygments_language: 'x'.repeat(41) }), error('pygments_language is too long (limit: 40 characters)'));
  });

  it('refuses a second playground with the same name and language, and non-administrators', async () => {
    await add(RUST);
    await refused(() => add(RUST), error('Realm playground with this Realm, Pygments language and Name already exists.', { errors: { __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] } }));
    await refused(() => realm.as('mark').post('/realm/playgrounds', RUST), { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
  });
});

describe('DELETE /realm/playgrounds/{playground_id}', () => {
  it('removes the playground and sends the new list', async () => {
    await add(RUST);
    const watcher = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('adam').delete('/realm/playgrounds/1')).body).toEqual({ result: 'success', msg: '' });
    expect(await playgrounds()).toEqual([]);
    expect(watcher.events).toEqual([{ id: 0, type: 'realm_playgrounds', realm_playgrounds: [] }]);
  });

  it('refuses an unknown playground', async () => {
    await refused(() => realm.as('adam').delete('/realm/playgrounds/9'), error('Invalid playground'));
  });
});
