import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const defaults = async () => (await realm.as('mark').post('/register', { fetch_event_types: ['default_streams'] })).body.realm_default_streams;

describe('POST /default_streams', () => {
  it('makes a public channel a default one and tells every member, not guests', async () => {
    const before = await defaults();
    const member = openQueue(realm.engine, IDS.mark);
    const guest = openQueue(realm.engine, IDS.gail);
    const { status, body } = await realm.as('adam').post('/default_streams', { stream_id: IDS.design });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(member.events).toEqual([{ id: 0, type: 'default_streams', default_streams: [...before, IDS.design] }]);
    expect(guest.events).toEqual([]);
    expect(await defaults()).toEqual([...before, IDS.design]);
  });

  it('does nothing for a channel that is already a default one', async () => {
    await realm.as('adam').post('/default_streams', { stream_id: IDS.design });
    const member = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('adam').post('/default_streams', { stream_id: IDS.design })).body).toEqual({ result: 'success', msg: '' });
    expect(member.events).toEqual([]);
  });

  it('refuses private channels, unknown ones and non-administrators', async () => {
    await refused(() => realm.as('adam').post('/default_streams', { stream_id: IDS.secret }), error('Invalid channel ID'));
    await refused(() => realm.as('olivia').post('/default_streams', { stream_id: IDS.secret }), error('Private channels cannot be made default.'));
    await refused(() => realm.as('adam').post('/default_streams', { stream_id: 99 }), error('Invalid channel ID'));
    await refused(() => realm.as('mark').post('/default_streams', { stream_id: IDS.design }), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    await refused(() => realm.as('adam').post('/default_streams', {}), { ...error("Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'stream_id' });
  });
});

describe('DELETE /default_streams', () => {
  it('removes a default channel and announces the new list', async () => {
    await realm.as('adam').post('/default_streams', { stream_id: IDS.design });
    const before = await defaults();
    const member = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('adam').delete('/default_streams', { stream_id: IDS.design })).body).toEqual({ result: 'success', msg: '' });
    const after = before.filter((id: number) => id !== IDS.design);
    expect(member.events).toEqual([{ id: 0, type: 'default_streams', default_streams: after }]);
    expect(await defaults()).toEqual(after);
  });

  it('refuses non-administrators', async () => {
    await refused(() => realm.as('mark').delete('/default_streams', { stream_id: IDS.general }), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });
});
