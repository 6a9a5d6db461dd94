import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const report = (user: TestUser, status: string, extra: Record<string, unknown> = {}) =>
  realm.as(user).post('/users/me/presence', { status, ...extra });
const later = (seconds: number) => realm.clock.advance(seconds * 1000);
/**
 * A user's presence as another user's /register shows it: its two times, and the realm's newest
 * presence update id (the user's own while only they report).
 */
async function presenceOf(userId: number) {
  const { body } = await realm.as('mia').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
  return { user_id: userId, ...body.presences[String(userId)], last_update_id: body.presence_last_update_id };
}

const legacy = (status: 'active' | 'idle', timestamp: number) => ({
  aggregated: { client: 'website', status, timestamp },
  website: { client: 'website', status, timestamp, pushable: false },
});

describe('POST /users/me/presence', () => {
  it("records a first active report, answers everyone's presence and announces the user", async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    const { status, body } = await report('mark', 'active');
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      presences: { 'mark@zulip.test': legacy('active', NOW) },
      server_timestamp: NOW,
      presence_last_update_id: 1,
    });
    expect(await presenceOf(IDS.mark)).toEqual({ user_id: IDS.mark, active_timestamp: NOW, idle_timestamp: NOW, last_update_id: 1 });
    expect(mia.events).toEqual([
      {
        id: 0,
        type: 'presence',
        user_id: IDS.mark,
        email: 'mark@zulip.test',
        server_timestamp: NOW,
        presence: { website: { client: 'website', status: 'active', timestamp: NOW, pushable: false } },
      },
    ]);
  });

  it('shapes the event for slim_presence and simplified_presence_events queues', async () => {
    const slim = openQueue(realm.engine, IDS.mia, { slimPresence: true });
    const simplified = openQueue(realm.engine, IDS.olivia, { capabilities: { ...NO_CAPABILITIES, simplified_presence_events: true } });
    await report('mark', 'active');
    expect(slim.events).toEqual([
      {
        id: 0,
        type: 'presence',
        user_id: IDS.mark,
        server_timestamp: NOW,
        presence: { website: { client: 'website', status: 'active', timestamp: NOW, pushable: false } },
      },
    ]);
    expect(simplified.events).toEqual([
      { id: 0, type: 'presence', presences: { [String(IDS.mark)]: { active_timestamp: NOW, idle_timestamp: NOW } } },
    ]);
  });

  it('records a first idle report with an activity time that reads as idle', async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    await report('mark', 'idle');
    expect(await presenceOf(IDS.mark)).toEqual({ user_id: IDS.mark, active_timestamp: NOW - 71, idle_timestamp: NOW, last_update_id: 1 });
    expect(mia.events[0]).toMatchObject({ presence: { website: { status: 'idle', timestamp: NOW } } });
  });

  it('moves timestamps at most once per 55 seconds and announces only a return after a gap', async () => {
    await report('mark', 'active');
    const mia = openQueue(realm.engine, IDS.mia);

    later(30);
    await report('mark', 'active');
    expect(await presenceOf(IDS.mark)).toEqual({ user_id: IDS.mark, active_timestamp: NOW, idle_timestamp: NOW, last_update_id: 1 });

    later(30);
    await report('mark', 'idle');
    expect(await presenceOf(IDS.mark)).toEqual({ user_id: IDS.mark, active_timestamp: NOW, idle_timestamp: NOW + 60, last_update_id: 2 });
    expect(mia.events).toEqual([]);

    later(60);
    await report('mark', 'active');
    expect(await presenceOf(IDS.mark)).toEqual({ user_id: IDS.mark, active_timestamp: NOW + 120, idle_timestamp: NOW + 120, last_update_id: 3 });
    expect(mia.events).toHaveLength(1);
    expect(mia.events[0]).toMatchObject({ type: 'presence', user_id: IDS.mark, presence: { website: { status: 'active', timestamp: NOW + 120 } } });
  });

  it('answers a ping without presence data', async () => {
    expect((await report('mark', 'active', { ping_only: true })).body).toEqual({ result: 'success', msg: '' });
    expect(await presenceOf(IDS.mark)).toEqual({ user_id: IDS.mark, active_timestamp: NOW, idle_timestamp: NOW, last_update_id: 1 });
  });

  it('answers in the modern format for slim_presence or last_update_id, only newer data for a positive last_update_id', async () => {
    await report('mia', 'active');
    const slim = await report('mark', 'active', { slim_presence: true });
    expect(slim.body.presences).toEqual({
      [String(IDS.mark)]: { active_timestamp: NOW, idle_timestamp: NOW },
      [String(IDS.mia)]: { active_timestamp: NOW, idle_timestamp: NOW },
    });
    expect(slim.body.presence_last_update_id).toBe(2);
    const newer = await report('mark', 'active', { last_update_id: 1 });
    expect(newer.body.presences).toEqual({ [String(IDS.mark)]: { active_timestamp: NOW, idle_timestamp: NOW } });
    expect(newer.body.presence_last_update_id).toBe(2);
    const none = await report('mark', 'active', { last_update_id: 2 });
    expect(none.body).toMatchObject({ presences: {}, presence_last_update_id: 2 });
  });

  it('leaves out users not seen within the history limit', async () => {
    await report('mia', 'active');
    later(3 * 86400);
    expect(Object.keys((await report('mark', 'active', { slim_presence: true })).body.presences)).toEqual([String(IDS.mark), String(IDS.mia)]);
    expect(Object.keys((await report('mark', 'active', { slim_presence: true, history_limit_days: 2 })).body.presences)).toEqual([String(IDS.mark)]);
  });

  it('refuses an unknown status and a bot, storing nothing', async () => {
    await expectRefused(realm, () => report('mark', 'away'), error('Invalid status: away'));
    await expectRefused(realm, () => report('bot', 'active'), error('This endpoint does not accept bot requests.'));
  });

  it('requires the status', async () => {
    await expectRefused(realm, () => realm.as('mark').post('/users/me/presence', {}), {
      ...error("Missing 'status' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'status',
    });
  });
});

describe('GET /realm/presence', () => {
  it('gives everyone the legacy format keyed by the email they may see', async () => {
    await report('mark', 'active');
    later(180);
    // No endpoint changes the realm's email_address_visibility (a scenario setting): it is seeded in storage.
    await realm.engine.db.realm.update(1, { email_address_visibility: 3 });
    const { status, body } = await realm.as('gail').get('/realm/presence');
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      presences: { [`user${IDS.mark}@zulip.test`]: legacy('idle', NOW) },
      server_timestamp: NOW + 180,
    });
  });
});

describe('GET /users/{user_id}/presence', () => {
  it('gives one user its status and time, by id or by email', async () => {
    await report('mark', 'active');
    const expected = { website: { status: 'active', timestamp: NOW }, aggregated: { status: 'active', timestamp: NOW } };
    const byId = await realm.as('mia').get(`/users/${IDS.mark}/presence`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ result: 'success', msg: '', presence: expected });
    expect((await realm.as('mia').get('/users/mark@zulip.test/presence')).body.presence).toEqual(expected);
  });

  it('calls a stale aggregate offline', async () => {
    await report('mark', 'active');
    later(200);
    expect((await realm.as('mia').get(`/users/${IDS.mark}/presence`)).body.presence).toEqual({
      website: { status: 'idle', timestamp: NOW },
      aggregated: { status: 'offline', timestamp: NOW },
    });
  });

  it('has no modern format: slim_presence is reported unsupported, as upstream does', async () => {
    await report('mark', 'idle');
    expect((await realm.as('mia').get(`/users/${IDS.mark}/presence`, { slim_presence: true })).body).toEqual({
      result: 'success',
      msg: '',
      presence: { website: { status: 'active', timestamp: NOW - 71 }, aggregated: { status: 'active', timestamp: NOW - 71 } },
      ignored_parameters_unsupported: ['slim_presence'],
    });
  });

  it('refuses unknown users, bots and users without presence data', async () => {
    expect((await realm.as('mia').get('/users/999/presence')).body).toEqual(error('No such user'));
    expect((await realm.as('mia').get('/users/nobody@zulip.test/presence')).body).toEqual(error('No such user'));
    expect((await realm.as('mia').get(`/users/${IDS.bot}/presence`)).body).toEqual(error('Presence is not supported for bot users.'));
    expect((await realm.as('mia').get(`/users/${IDS.olivia}/presence`)).body).toEqual(error(`No presence data for ${IDS.olivia}`));
  });
});

describe('the presence register section', () => {
  it('gives presences in the format slim_presence asks for, with the update id and the time', async () => {
    await report('mark', 'active');
    const slim = await realm.as('mia').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
    expect(slim.body).toMatchObject({
      presences: { [String(IDS.mark)]: { active_timestamp: NOW, idle_timestamp: NOW } },
      presence_last_update_id: 1,
      server_timestamp: NOW,
    });
    const old = await realm.as('mia').post('/register', { fetch_event_types: ['presence'] });
    expect(old.body.presences).toEqual({ 'mark@zulip.test': legacy('active', NOW) });
  });

  it('honours presence_history_limit_days', async () => {
    await report('mark', 'active');
    later(2 * 86400);
    const { body } = await realm.as('mia').post('/register', { fetch_event_types: ['presence'], presence_history_limit_days: 1 });
    expect(body.presences).toEqual({});
    expect(body.presence_last_update_id).toBe(-1);
  });
});

describe('invisible mode (presence_enabled off)', () => {
  const goInvisible = async (user: TestUser) => {
    const { body } = await realm.as(user).patch('/settings', { presence_enabled: false });
    expect(body).toEqual({ result: 'success', msg: '' });
  };

  it("accepts an invisible user's reports without recording or announcing them", async () => {
    await goInvisible('mark');
    const queues = [IDS.mia, IDS.olivia, IDS.mark].map((id) => openQueue(realm.engine, id));
    const { status, body } = await report('mark', 'active', { slim_presence: true });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', presences: {}, server_timestamp: NOW, presence_last_update_id: -1 });
    // The user sees their own presence even while invisible: none was recorded.
    expect((await realm.as('mark').get(`/users/${IDS.mark}/presence`)).body).toEqual(error(`No presence data for ${IDS.mark}`));
    // The API shows update ids of recorded presences only, never the counter they are drawn from.
    expect(await realm.engine.db.counters.get('presence_update')).toBeUndefined();
    for (const queue of queues) expect(queue.events).toEqual([]);
  });

  it('hides data recorded before the user went invisible from everyone else, but not from the user', async () => {
    await report('mark', 'active');
    await goInvisible('mark');
    expect((await realm.as('mia').get('/realm/presence')).body.presences).toEqual({});
    expect((await report('mia', 'active', { slim_presence: true })).body.presences).toEqual({
      [String(IDS.mia)]: { active_timestamp: NOW, idle_timestamp: NOW },
    });
    const register = await realm.as('mia').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
    expect(register.body.presences).toEqual({ [String(IDS.mia)]: { active_timestamp: NOW, idle_timestamp: NOW } });
    expect((await realm.as('mark').get('/realm/presence')).body.presences).toEqual({
      'mark@zulip.test': legacy('active', NOW),
      'mia@zulip.test': legacy('active', NOW),
    });
  });

  it('answers others asking for an invisible user as for a user without presence data', async () => {
    await report('mark', 'active');
    await goInvisible('mark');
    const asked = await realm.as('mia').get(`/users/${IDS.mark}/presence`);
    expect(asked.status).toBe(400);
    expect(asked.body).toEqual(error(`No presence data for ${IDS.mark}`));
    expect((await realm.as('mia').get('/users/mark@zulip.test/presence')).body).toEqual(error('No presence data for mark@zulip.test'));
    expect((await realm.as('mark').get(`/users/${IDS.mark}/presence`)).body.presence).toEqual({
      website: { status: 'active', timestamp: NOW },
      aggregated: { status: 'active', timestamp: NOW },
    });
  });

  it('records and announces reports again once presence is back on', async () => {
    await goInvisible('mark');
    await report('mark', 'active');
    await realm.as('mark').patch('/settings', { presence_enabled: true });
    const mia = openQueue(realm.engine, IDS.mia, { slimPresence: true });
    await report('mark', 'active');
    expect(await presenceOf(IDS.mark)).toEqual({ user_id: IDS.mark, active_timestamp: NOW, idle_timestamp: NOW, last_update_id: 1 });
    expect(mia.events).toEqual([expect.objectContaining({ type: 'presence', user_id: IDS.mark })]);
    expect((await realm.as('mia').get(`/users/${IDS.mark}/presence`)).body.presence).toEqual({
      website: { status: 'active', timestamp: NOW },
      aggregated: { status: 'active', timestamp: NOW },
    });
  });
});
