import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, subscribe, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const send = (user: TestUser, channel: string, topic: string) =>
  realm.as(user).post('/messages', { type: 'stream', to: channel, topic, content: 'hello' });
const topics = (user: TestUser, channelId: number, params: Record<string, unknown> = {}) =>
  realm.as(user).get(`/users/me/${channelId}/topics`, params);

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists the topics newest first, each with its newest message id and the name it carries', async () => {
    await send('mia', 'general', 'Zebra');
    await send('mia', 'general', 'WELCOME');
    const { status, body } = await topics('mark', IDS.general);
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      topics: [
        { name: 'WELCOME', max_id: 6 },
        { name: 'Zebra', max_id: 5 },
      ],
    });
  });

  it('shows the empty topic under the realm’s name for it unless allow_empty_topic_name', async () => {
    await send('mia', 'general', '');
    expect((await topics('mia', IDS.general)).body.topics[0]).toEqual({ name: 'general chat', max_id: 5 });
    expect((await topics('mia', IDS.general, { allow_empty_topic_name: true })).body.topics[0]).toEqual({ name: '', max_id: 5 });
  });

  it('shows a public channel’s topics to members who are not subscribed', async () => {
    await send('olivia', 'design', 'colors');
    expect((await topics('mia', IDS.design)).body.topics).toEqual([{ name: 'colors', max_id: 5 }]);
  });

  it('shows a protected-history channel’s topics only from the messages the user received', async () => {
    await subscribe(realm.engine, IDS.mia, IDS.secret, 5);
    expect((await topics('mia', IDS.secret)).body.topics).toEqual([]);
    await send('mark', 'secret', 'later');
    expect((await topics('mia', IDS.secret)).body.topics).toEqual([{ name: 'later', max_id: 5 }]);
    expect((await topics('mark', IDS.secret)).body.topics).toEqual([
      { name: 'later', max_id: 5 },
      { name: 'plans', max_id: 3 },
    ]);
  });

  it('shows a shared-history channel’s whole history to a new subscriber', async () => {
    expect((await realm.as('olivia').patch(`/streams/${IDS.secret}`, { history_public_to_subscribers: true })).status).toBe(200);
    const subscribed = await realm.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], principals: [IDS.mia] });
    expect(subscribed.status).toBe(200);
    expect((await topics('mia', IDS.secret)).body.topics).toEqual([{ name: 'plans', max_id: 3 }]);
  });

  it('refuses channels the user cannot read, unknown and archived ones alike', async () => {
    expect((await topics('mia', IDS.secret)).body).toEqual(error('Invalid channel ID'));
    expect((await topics('gail', IDS.design)).body).toEqual(error('Invalid channel ID'));
    expect((await topics('mark', 99)).body).toEqual(error('Invalid channel ID'));
    expect((await realm.as('adam').delete(`/streams/${IDS.design}`)).status).toBe(200);
    const { status, body } = await topics('mark', IDS.design);
    expect(status).toBe(400);
    expect(body).toEqual(error('Invalid channel ID'));
  });

  it('refuses a bad allow_empty_topic_name', async () => {
    expect((await topics('mark', IDS.general, { allow_empty_topic_name: 'yes' })).body).toEqual(error('allow_empty_topic_name is not valid JSON'));
  });
});

describe('GET /streams/{stream_id}/members', () => {
  it('lists the active subscribers by id', async () => {
    // No endpoint deactivates a bot yet (DELETE /users/{id} is for humans).
    await realm.engine.db.users.update(IDS.bot, { is_active: false });
    const { status, body } = await realm.as('mia').get(`/streams/${IDS.general}/members`);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', subscribers: [IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.mia, IDS.gail] });
  });

  it('shows a private channel’s subscribers to its subscribers and to administrators', async () => {
    expect((await realm.as('mark').get(`/streams/${IDS.secret}/members`)).body.subscribers).toEqual([IDS.olivia, IDS.mark]);
    expect((await realm.as('adam').get(`/streams/${IDS.secret}/members`)).body.subscribers).toEqual([IDS.olivia, IDS.mark]);
  });

  it('refuses users who may not see the subscribers, and unknown channels', async () => {
    expect((await realm.as('mia').get(`/streams/${IDS.secret}/members`)).body).toEqual(error('Invalid channel ID'));
    expect((await realm.as('gail').get(`/streams/${IDS.design}/members`)).body).toEqual(error('Invalid channel ID'));
    expect((await realm.as('mia').get('/streams/99/members')).body).toEqual(error('Invalid channel ID'));
    expect((await realm.as('mia').get('/streams/abc/members')).body).toEqual(error('Invalid stream_id'));
  });
});

describe('GET /get_stream_id', () => {
  it('finds a channel by name, whatever its case', async () => {
    const { status, body } = await realm.as('mark').get('/get_stream_id', { stream: 'Design' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', stream_id: IDS.design });
  });

  it('answers unknown channels and channels the user cannot read alike', async () => {
    expect((await realm.as('mia').get('/get_stream_id', { stream: 'secret' })).body).toEqual(error("Invalid channel name 'secret'"));
    expect((await realm.as('mia').get('/get_stream_id', { stream: 'nowhere' })).body).toEqual(error("Invalid channel name 'nowhere'"));
  });

  it('requires the stream parameter', async () => {
    expect((await realm.as('mia').get('/get_stream_id')).body).toEqual({
      ...error("Missing 'stream' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'stream',
    });
  });
});
