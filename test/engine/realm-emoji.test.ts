import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
  await realm.engine.db.realm_emoji.bulkAdd([
    { id: 2, name: 'party_parrot', source_url: '/user_avatars/1/emoji/images/2.gif', deactivated: true, author_id: null },
    { id: 1, name: 'green_tick', source_url: '/user_avatars/1/emoji/images/1.png', deactivated: false, author_id: IDS.adam },
  ]);
});
afterEach(() => realm.engine.close());

const EMOJI = {
  '1': { id: '1', name: 'green_tick', source_url: '/user_avatars/1/emoji/images/1.png', still_url: null, deactivated: false, author_id: IDS.adam },
  '2': { id: '2', name: 'party_parrot', source_url: '/user_avatars/1/emoji/images/2.gif', still_url: null, deactivated: true, author_id: null },
};

describe('GET /realm/emoji', () => {
  it('lists every custom emoji by id, deactivated ones included, to any user', async () => {
    const { status, body } = await realm.as('gail').get('/realm/emoji');
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', emoji: EMOJI });
  });

  it('needs authentication', async () => {
    const { status, body } = await realm.anonymous().get('/realm/emoji');
    expect(status).toBe(401);
    expect(body.code).toBe('UNAUTHORIZED');
  });

  it('matches the realm_emoji register section', async () => {
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['realm_emoji'] });
    expect(body.realm_emoji).toEqual(EMOJI);
  });
});
